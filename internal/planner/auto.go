package planner

import (
	"fmt"

	"github.com/pathflow/pathflow/internal/backend"
)

// Thresholds of AutoCPU for all-pairs problems.
const (
	// FloydWarshallMaxN: up to this many vertices the blocked
	// Floyd-Warshall is used whatever the density; its n^3 min-plus steps
	// run at well under a nanosecond each, against tens of nanoseconds per
	// arc for a heap-based search.
	FloydWarshallMaxN = 4096
	// denseDivisor: beyond FloydWarshallMaxN a graph with at least
	// n^2/denseDivisor arcs is dense enough for Floyd-Warshall to beat n
	// Dijkstra searches.
	denseDivisor = 128
)

// AutoCPU is the algorithm compute.algorithm auto runs on the CPU for a
// graph of n vertices and m arcs, all pairs or not, with or without
// negative weights, and why in a sentence fit for a log:
//
//   - single source: dijkstra, or bellman-ford when some weight is
//     negative;
//   - all pairs: floyd-warshall (blocked) when n <= 4096 or m >= n^2/128,
//     else johnson (which is plain repeated Dijkstra when no weight is
//     negative).
//
// O(1).
func AutoCPU(allPairs bool, n int32, m int64, negativeWeights bool) (name, reason string) {
	if !allPairs {
		if negativeWeights {
			return backend.AlgorithmBellmanFord, "negative weights: Bellman-Ford (Dijkstra needs non-negative weights)"
		}
		return backend.AlgorithmDijkstra, "non-negative weights: Dijkstra"
	}
	nn := int64(n) * int64(n)
	switch {
	case n <= FloydWarshallMaxN:
		return backend.AlgorithmFloydWarshall, fmt.Sprintf("all pairs on %d <= %d vertices: blocked Floyd-Warshall", n, FloydWarshallMaxN)
	case m*denseDivisor >= nn:
		return backend.AlgorithmFloydWarshall, fmt.Sprintf("all pairs on a dense graph (%d arcs >= n^2/%d): blocked Floyd-Warshall", m, denseDivisor)
	case negativeWeights:
		return backend.AlgorithmJohnson, fmt.Sprintf("all pairs on a sparse graph (%d vertices, %d arcs) with negative weights: Johnson's reweighting, then Dijkstra from every source", n, m)
	default:
		return backend.AlgorithmJohnson, fmt.Sprintf("all pairs on a sparse graph (%d vertices, %d arcs) without negative weights: Dijkstra from every source", n, m)
	}
}

// AutoGPU is the algorithm family compute.algorithm auto runs on the GPU
// for a graph of n vertices whose smallest weight is lo, and why:
// floyd-warshall when every source is asked for, bellman-ford when some
// weight is negative, else sssp (the near-far search). O(1).
func AutoGPU(allSources bool, n int32, lo int32) (name, reason string) {
	switch {
	case allSources:
		return backend.AlgorithmFloydWarshall, fmt.Sprintf("all pairs on %d vertices on the GPU: Floyd-Warshall", n)
	case lo < 0:
		return backend.AlgorithmBellmanFord, fmt.Sprintf("negative weights (min %d) on the GPU: Bellman-Ford", lo)
	default:
		return backend.AlgorithmSSSP, "non-negative weights on the GPU: the near-far frontier search"
	}
}
