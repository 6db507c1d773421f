package gpu

import (
	"fmt"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/gpu/sssp"
)

// The GPU runs sssp, bellman-ford and dijkstra as batches of device
// searches (package sssp). The three families take every search variant
// and differ in the default an empty variant picks (sssp.Choose).
func init() {
	for _, name := range []string{sssp.SSSPFamily, sssp.BellmanFordFamily, sssp.DijkstraFamily} {
		implementations.Register(name, implementation{choose: chooseSearch})
	}
}

// chooseSearch resolves a search family's variant and checks that int32
// distances hold the graph's.
func chooseSearch(p backend.Problem, alg backend.Algorithm, lo, hi int32, reason string) (backend.Choice, error) {
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
