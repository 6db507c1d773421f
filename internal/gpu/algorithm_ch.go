package gpu

import (
	"fmt"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/gpu/device"
	"github.com/pathflow/pathflow/internal/gpu/sssp"
)

// The GPU answers ch by PHAST sweeps over a contraction hierarchy (the
// request's, or one built on the host), 32 sources per sweep.
func init() {
	implementations.Register(backend.AlgorithmCH, implementation{
		choose: func(_ backend.Problem, alg backend.Algorithm, lo, _ int32, reason string) (backend.Choice, error) {
			if lo < 0 {
				return backend.Choice{}, fmt.Errorf("gpu: %s needs non-negative weights (a contraction hierarchy's upward searches assume them) and the graph has an arc of weight %d; use bellman-ford, johnson or auto, which handle negative weights: %w", sssp.AlgorithmCH, lo, device.ErrNotSupported)
			}
			if alg.Variant != "" {
				return backend.Choice{}, fmt.Errorf("gpu: %s has no variant %q: %w", sssp.AlgorithmCH, alg.Variant, device.ErrNotSupported)
			}
			return backend.Choice{Algorithm: alg, Reason: reason + ": a contraction hierarchy swept on the GPU (PHAST), 32 sources per sweep"}, nil
		},
	})
}
