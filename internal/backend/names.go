package backend

// Algorithm names (Algorithm.Name), shared by every backend and by the
// compute.algorithm key. A Choice names one of Dijkstra, Bellman-Ford,
// Floyd-Warshall, Johnson and CH (a contraction hierarchy, CPU only); auto
// and sssp resolve to one of the first four. Variants are each backend's
// own.
const (
	AlgorithmAuto          = "auto"
	AlgorithmSSSP          = "sssp"
	AlgorithmDijkstra      = "dijkstra"
	AlgorithmBellmanFord   = "bellman-ford"
	AlgorithmFloydWarshall = "floyd-warshall"
	AlgorithmJohnson       = "johnson"
	// AlgorithmCH builds a contraction hierarchy for the run and answers
	// from it; auto does not pick it.
	AlgorithmCH = "ch"
)

// Algorithms lists the names compute.algorithm accepts, auto first.
func Algorithms() []string {
	return []string{AlgorithmAuto, AlgorithmDijkstra, AlgorithmBellmanFord, AlgorithmSSSP, AlgorithmFloydWarshall, AlgorithmJohnson, AlgorithmCH}
}

// Backend names: what Factory.Name registers and compute.backend selects.
// A backend registers itself when its package is linked in, so a command
// blank-imports every backend it offers (cmd/compute: internal/cpu, and
// internal/gpu, which registers in cuda builds only).
const (
	CPU = "cpu"
	GPU = "gpu"
)
