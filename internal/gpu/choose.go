package gpu

import (
	"fmt"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/gpu/allpairs"
	"github.com/pathflow/pathflow/internal/gpu/device"
	"github.com/pathflow/pathflow/internal/gpu/sssp"
)

// choose is the GPU Factory's Choose: what the backend would run for p,
// decided on the host from the graph's size and weight range alone, before
// any device is opened.
//
// "auto" (or no name) picks floyd-warshall when every source is asked for,
// bellman-ford when some weight is negative, else sssp (near-far). The
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
func choose(p backend.Problem) (backend.Choice, error) {
	alg := p.Algorithm
	lo, hi := p.MinWeight, p.MaxWeight
	if p.M == 0 {
		lo, hi = 0, 0
	}
	reason := "requested"
	if alg.Name == "" || alg.Name == backend.AlgorithmAuto {
		switch {
		case p.AllSources:
			alg.Name = allpairs.AllPairsFamily
			reason = fmt.Sprintf("all pairs on %d vertices on the GPU: Floyd-Warshall", p.N)
		case lo < 0:
			alg.Name = sssp.BellmanFordFamily
			reason = fmt.Sprintf("negative weights (min %d) on the GPU: Bellman-Ford", lo)
		default:
			alg.Name = sssp.SSSPFamily
			reason = "non-negative weights on the GPU: the near-far frontier search"
		}
	}
	if alg.Variant == backend.AlgorithmAuto {
		alg.Variant = ""
	}
	switch alg.Name {
	case allpairs.AllPairsFamily:
		alg, err := allpairs.Choose(int64(p.N), lo, hi, alg)
		if err != nil {
			return backend.Choice{}, err
		}
		return backend.Choice{Algorithm: alg, AllPairs: true, Reason: reason}, nil
	case sssp.AlgorithmCH:
		if lo < 0 {
			return backend.Choice{}, fmt.Errorf("gpu: %s needs non-negative weights (a contraction hierarchy's upward searches assume them) and the graph has an arc of weight %d; use bellman-ford, johnson or auto, which handle negative weights: %w", sssp.AlgorithmCH, lo, device.ErrNotSupported)
		}
		if alg.Variant != "" {
			return backend.Choice{}, fmt.Errorf("gpu: %s has no variant %q: %w", sssp.AlgorithmCH, alg.Variant, device.ErrNotSupported)
		}
		return backend.Choice{Algorithm: alg, Reason: reason + ": a contraction hierarchy swept on the GPU (PHAST), 32 sources per sweep"}, nil
	case sssp.SSSPFamily, sssp.BellmanFordFamily, sssp.DijkstraFamily:
		variant, checked, err := sssp.Choose(int64(p.N), lo, hi, alg)
		if err != nil {
			return backend.Choice{}, err
		}
		alg.Variant = variant
		if checked {
			reason += fmt.Sprintf("; the worst-case distance on %d vertices exceeds int32, so near-far checks its real distances", p.N)
		}
		return backend.Choice{Algorithm: alg, Reason: reason}, nil
	}
	return backend.Choice{}, fmt.Errorf("gpu: algorithm %q: %w (have %s, %s, %s, %s, %s)",
		alg.Name, device.ErrNotSupported, allpairs.AllPairsFamily, sssp.SSSPFamily, sssp.BellmanFordFamily, sssp.DijkstraFamily, sssp.AlgorithmCH)
}
