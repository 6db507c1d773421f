package backend

// Algorithm names (Algorithm.Name), shared by every backend and by the
// compute.algorithm key. A Choice names one of Dijkstra, Bellman-Ford,
// Floyd-Warshall, Johnson and CH (a contraction hierarchy); auto
// and sssp resolve to one of the first four. Variants are each backend's
// own.
const (
	AlgorithmAuto          = "auto"
	AlgorithmSSSP          = "sssp"
	AlgorithmDijkstra      = "dijkstra"
	AlgorithmBellmanFord   = "bellman-ford"
	AlgorithmFloydWarshall = "floyd-warshall"
	AlgorithmJohnson       = "johnson"
	// AlgorithmCH answers from a contraction hierarchy: the request's (an
	// ingest output stores one), else one built for the run. The backends'
	// auto does not pick it; the pipeline's auto does when the input
	// stores a hierarchy of the graph (pipeline/plan_hierarchy.go).
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
