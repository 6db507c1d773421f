// Package sssp is the GPU backend's single- and multi-source searches:
// the sssp, bellman-ford and dijkstra families on the device layer of
// package device.
//
// Variants (plan.go): near-far (the default of sssp: delta-stepping with a
// near queue and a far pile, a whole search in one cooperative launch,
// many sources per launch), bf-flags, bf-stride and bf-naive
// (Bellman-Ford), and dijkstra. A Solver (solver_cuda.go, Prepare) uploads the
// graph once (devicegraph_cuda.go) and solves batches of sources into
// double-buffered device rows, streamed through the device's Stager;
// SolveBatch (batch_cuda.go) runs near-far searches of up to 32 sources
// per group that share one frontier, for requests with several sources,
// targets or a cutoff. Serve answers a backend request on one device or
// several. Parents come from one pass over the tight arcs; the host
// mends the rare looping tree and locates negative cycles (host.go). See
// docs/gpu-sssp.md.
package sssp
