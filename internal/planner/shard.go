package planner

import "github.com/pathflow/pathflow/internal/backend"

// ShardAlgorithm adapts compute.algorithm for one shard of an all-pairs
// run: each shard computes only its rows, with the multi-source family
// that auto picks for many sources (Dijkstra), or Johnson when a weight is
// negative (auto would take Bellman-Ford from each source). It returns
// algorithm unchanged unless the run is split into shards, asks for every
// source (compute.sources: all) and says auto; a one-shard run plans as an
// all-pairs run, Floyd-Warshall included. minWeight gives the graph's
// smallest weight; it is called only when the answer depends on it, since
// finding it may take a pass over the arcs. O(1) besides minWeight.
func ShardAlgorithm(algorithm string, split, allSources bool, minWeight func() int32) string {
	if !split || algorithm != backend.AlgorithmAuto || !allSources || minWeight() >= 0 {
		return algorithm
	}
	return backend.AlgorithmJohnson
}
