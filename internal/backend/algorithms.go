package backend

import "slices"

// Algorithm names (Algorithm.Name), shared by every backend, the planner
// and the compute.algorithm key. This file is their one home: every other
// file names an algorithm through these constants and learns what it is
// from its Descriptor.
const (
	AlgorithmAuto          = "auto"
	AlgorithmSSSP          = "sssp"
	AlgorithmDijkstra      = "dijkstra"
	AlgorithmBellmanFord   = "bellman-ford"
	AlgorithmFloydWarshall = "floyd-warshall"
	AlgorithmJohnson       = "johnson"
	// AlgorithmCH answers from a contraction hierarchy: the request's (an
	// ingest output stores one), else one built for the run. The backends'
	// auto does not pick it; the planner's does when the input stores a
	// hierarchy of the graph (planner.AutoCH).
	AlgorithmCH = "ch"
)

// Variant names (Algorithm.Variant), shared by the backends that implement
// them. Which variants of an algorithm a backend takes is its Choose's to
// decide (the GPU's in packages allpairs and sssp, the CPU's in its
// algorithm files).
const (
	// VariantBlocked is the tiled Floyd-Warshall (the CPU's default).
	VariantBlocked = "blocked"
	// VariantNaive is Floyd-Warshall's plain triple loop, one pivot at a
	// time.
	VariantNaive = "naive"
	// VariantFast is the GPU's default Floyd-Warshall: 128 x 128
	// register-tiled tiles.
	VariantFast = "fast"
	// VariantRow is the GPU Floyd-Warshall with one thread per row.
	VariantRow = "row"
	// VariantNearFar is the GPU's near-far frontier search.
	VariantNearFar = "near-far"
	// VariantBFFlags, VariantBFStride and VariantBFNaive are the GPU's
	// Bellman-Ford kernels, from the flag-driven one down to the plain one.
	VariantBFFlags  = "bf-flags"
	VariantBFStride = "bf-stride"
	VariantBFNaive  = "bf-naive"
	// VariantDijkstra is the GPU's Dijkstra kernel, named after its
	// algorithm.
	VariantDijkstra = AlgorithmDijkstra
)

// Descriptor is what pathflow knows of an algorithm whatever the backend:
// one line of the table below per algorithm. What an algorithm needs of
// the weights and which variants it has are each backend's to say, in its
// Choose: the refusals name the backend's own alternatives.
type Descriptor struct {
	Name string
	// Policy is true for names that are not an algorithm but a rule that a
	// backend's Choose resolves into one (auto, sssp).
	Policy bool
	// AllPairs is true when the algorithm computes the whole matrix and
	// hands over the requested rows; false for searches from the requested
	// sources alone (Johnson included). Each backend's Choose copies it
	// into Choice.AllPairs, which names the progress unit (ProgressUnit).
	AllPairs bool
}

// algorithms is the table, in the order compute.algorithm lists them.
// Adding an algorithm starts here (docs/contributing.md).
var algorithms = []Descriptor{
	{Name: AlgorithmAuto, Policy: true},
	{Name: AlgorithmDijkstra},
	{Name: AlgorithmBellmanFord},
	{Name: AlgorithmSSSP, Policy: true},
	{Name: AlgorithmFloydWarshall, AllPairs: true},
	{Name: AlgorithmJohnson},
	{Name: AlgorithmCH},
}

// Algorithms lists the names compute.algorithm accepts, auto first.
func Algorithms() []string {
	names := make([]string, len(algorithms))
	for i, d := range algorithms {
		names[i] = d.Name
	}
	return names
}

// Describe returns the descriptor of the algorithm name.
func Describe(name string) (Descriptor, bool) {
	i := slices.IndexFunc(algorithms, func(d Descriptor) bool { return d.Name == name })
	if i < 0 {
		return Descriptor{}, false
	}
	return algorithms[i], true
}

// Backend names: what Factory.Name registers and compute.backend selects.
// A backend registers itself when its package is linked in, so a command
// blank-imports every backend it offers (cmd/compute: internal/cpu, and
// internal/gpu, which registers in cuda builds only).
const (
	CPU = "cpu"
	GPU = "gpu"
)
