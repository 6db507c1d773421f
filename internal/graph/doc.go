// Package graph holds pathflow's in-memory graph types: an arc list over dense
// int32 vertex ids (EdgeList), its compressed sparse row form (CSR) and the
// per-vertex metadata carried from the input (Vertices), with the few
// whole-graph operations the readers need: strongly connected components
// (StrongComponents) and induced subgraphs (Keep).
//
// Vertex ids are 0-based and dense: 0..N-1. Weights are int32; every stage
// that sums them does so in int64 or checks the bound first (see
// DistanceBound). The flat arrays map one to one onto GPU buffers.
package graph
