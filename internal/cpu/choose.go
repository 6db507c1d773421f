package cpu

import "fmt"

// Algorithm names understood by Backend (backend.Algorithm.Name).
const (
	AlgorithmAuto          = "auto"
	AlgorithmDijkstra      = "dijkstra"
	AlgorithmBellmanFord   = "bellman-ford"
	AlgorithmFloydWarshall = "floyd-warshall"
	AlgorithmJohnson       = "johnson"
)

// Floyd-Warshall variants (backend.Algorithm.Variant); empty means
// VariantBlocked.
const (
	VariantBlocked = "blocked"
	VariantNaive   = "naive"
)

// Problem is the kind of query an algorithm is chosen for.
type Problem int

const (
	// ProblemSingleSource is one search from a source; a multi-source run
	// is many of them.
	ProblemSingleSource Problem = iota
	// ProblemAllPairs is the full distance matrix.
	ProblemAllPairs
)

// Thresholds of ChooseAlgorithm for all-pairs problems.
const (
	// floydWarshallMaxN: up to this many vertices the blocked
	// Floyd-Warshall is used whatever the density; its n^3 min-plus steps
	// run at well under a nanosecond each, against tens of nanoseconds per
	// arc for a heap-based search.
	floydWarshallMaxN = 4096
	// denseDivisor: beyond floydWarshallMaxN a graph with at least
	// n^2/denseDivisor arcs is dense enough for Floyd-Warshall to beat n
	// Dijkstra searches.
	denseDivisor = 128
)

// ChooseAlgorithm picks the algorithm "auto" runs for a problem on a graph
// of n vertices and m arcs, and says why in a sentence fit for a log:
//
//   - single source: dijkstra, or bellman-ford when some weight is
//     negative;
//   - all pairs: floyd-warshall (blocked) when n <= 4096 or m >= n^2/128,
//     else johnson (which is plain repeated Dijkstra when no weight is
//     negative).
func ChooseAlgorithm(p Problem, n int32, m int, negativeWeights bool) (name, reason string) {
	switch p {
	case ProblemAllPairs:
		nn := int64(n) * int64(n)
		switch {
		case n <= floydWarshallMaxN:
			return AlgorithmFloydWarshall, fmt.Sprintf("all pairs on %d <= %d vertices: blocked Floyd-Warshall", n, floydWarshallMaxN)
		case int64(m)*denseDivisor >= nn:
			return AlgorithmFloydWarshall, fmt.Sprintf("all pairs on a dense graph (%d arcs >= n^2/%d): blocked Floyd-Warshall", m, denseDivisor)
		case negativeWeights:
			return AlgorithmJohnson, fmt.Sprintf("all pairs on a sparse graph (%d vertices, %d arcs) with negative weights: Johnson's reweighting, then Dijkstra from every source", n, m)
		default:
			return AlgorithmJohnson, fmt.Sprintf("all pairs on a sparse graph (%d vertices, %d arcs) without negative weights: Dijkstra from every source", n, m)
		}
	default:
		if negativeWeights {
			return AlgorithmBellmanFord, "negative weights: Bellman-Ford (Dijkstra needs non-negative weights)"
		}
		return AlgorithmDijkstra, "non-negative weights: Dijkstra"
	}
}
