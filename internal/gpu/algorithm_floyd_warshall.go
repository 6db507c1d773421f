package gpu

import (
	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/gpu/allpairs"
)

// The GPU runs Floyd-Warshall on the device (package allpairs) and streams
// the requested rows of the matrix.
func init() {
	implementations.Register(backend.AlgorithmFloydWarshall, implementation{
		choose: func(p backend.Problem, alg backend.Algorithm, lo, hi int32, reason string) (backend.Choice, error) {
			alg, err := allpairs.Choose(int64(p.N), lo, hi, alg)
			if err != nil {
				return backend.Choice{}, err
			}
			return backend.Choice{Algorithm: alg, Reason: reason}, nil
		},
	})
}
