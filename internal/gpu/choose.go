package gpu

import (
	"fmt"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/gpu/allpairs"
	"github.com/pathflow/pathflow/internal/gpu/device"
	"github.com/pathflow/pathflow/internal/gpu/sssp"
	"github.com/pathflow/pathflow/internal/planner"
)

// implementation is what the GPU backend runs for one algorithm; each
// algorithm's file (algorithm_*.go) registers its own in implementations.
type implementation struct {
	// choose resolves alg (its variant "" for the default) on a graph of
	// p.N vertices with weights lo..hi (both 0 without arcs); reason says
	// how the name was picked, for Choice.Reason.
	choose func(p backend.Problem, alg backend.Algorithm, lo, hi int32, reason string) (backend.Choice, error)
}

// implementations are the algorithms the GPU backend runs. Run serves the
// all-pairs ones (backend.Descriptor.AllPairs) with package allpairs, the
// searches with package sssp.
var implementations backend.Implementations[implementation]

// choose is the GPU Factory's Choose: what the backend would run for p,
// decided on the host from the graph's size and weight range alone, before
// any device is opened.
//
// "auto" (or no name) takes planner.AutoGPU's pick: floyd-warshall when
// every source is asked for, bellman-ford when some weight is negative,
// else sssp (near-far). The
// Choice carries the concrete variant (the family's default when none or
// "auto" is given) and int32 distances. Errors wrap device.ErrNotSupported
// (backend.ErrUnsupported) for what the GPU does not implement, johnson
// among them, and device.ErrNeedsInt64 (backend.ErrNeedsInt64) when int32
// distances might overflow: graph.FitsInt32Distances, and with negative
// weights twice the distance bound. The one exception is near-far on
// non-negative weights, which checks its real distances while it runs and
// fails with device.ErrNeedsInt64 only if one reaches graph.Inf32 (a road network
// with weights up to 1000 has a worst-case bound far above int32 and real
// distances far below it).
// A run that asks for a metric (Problem.Metric) is refused unless it
// resolves to ch or to the near-far search (sssp's default variant), the
// GPU paths that sum it; auto's other picks then run on the CPU.
func choose(p backend.Problem) (backend.Choice, error) {
	alg := p.Algorithm
	lo, hi := p.MinWeight, p.MaxWeight
	if p.M == 0 {
		lo, hi = 0, 0
	}
	reason := "requested"
	if alg.Name == "" || alg.Name == backend.AlgorithmAuto {
		alg.Name, reason = planner.AutoGPU(p.AllSources, p.N, lo)
	}
	if alg.Variant == backend.AlgorithmAuto {
		alg.Variant = ""
	}
	impl, ok := implementations.Lookup(alg.Name)
	if !ok {
		return backend.Choice{}, unknownAlgorithm(alg.Name)
	}
	c, err := impl.choose(p, alg, lo, hi, reason)
	if err != nil {
		return c, err
	}
	if p.Metric && c.Algorithm.Name != sssp.AlgorithmCH && c.Algorithm.Variant != sssp.VariantNearFar {
		return backend.Choice{}, errMetricElsewhere(c.Algorithm)
	}
	// The table says which algorithms compute a whole matrix.
	d, _ := backend.Describe(c.Algorithm.Name)
	c.AllPairs = d.AllPairs
	return c, nil
}

// errMetricElsewhere is the error for a metric asked of an algorithm whose
// GPU path does not sum one.
func errMetricElsewhere(alg backend.Algorithm) error {
	name := alg.Name
	if alg.Variant != "" {
		name += " (" + alg.Variant + ")"
	}
	return fmt.Errorf("gpu: a metric beside the distance is reported on the GPU by %s and the %s search (%s), not %s (the CPU backend also reports it with dijkstra and bellman-ford): %w",
		sssp.AlgorithmCH, sssp.VariantNearFar, sssp.SSSPFamily, name, device.ErrNotSupported)
}

// unknownAlgorithm is the error for a name the GPU does not implement; it
// lists the families the GPU runs, the all-pairs one first.
func unknownAlgorithm(name string) error {
	return fmt.Errorf("gpu: algorithm %q: %w (have %s, %s, %s, %s, %s)",
		name, device.ErrNotSupported, allpairs.AllPairsFamily, sssp.SSSPFamily, sssp.BellmanFordFamily, sssp.DijkstraFamily, sssp.AlgorithmCH)
}
