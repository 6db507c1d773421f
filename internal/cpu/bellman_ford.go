package cpu

import (
	"context"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/shortest"
)

// The CPU runs Bellman-Ford from each requested source, one search per
// worker; narrowed rows are gathered from whole ones.
func init() {
	implementations.Register(backend.AlgorithmBellmanFord, implementation{
		choose: asRequested("requested: Bellman-Ford from each source", nil),
		check:  noVariant,
		searches: func(_ context.Context, g *graph.CSR, lo int32, _ bool, limit int64) (searchSet, error) {
			if err := shortest.CheckBellmanFordInput(g); err != nil {
				return searchSet{}, err
			}
			if lo < 0 {
				// A path may return below the cutoff after leaving it.
				limit = noLimit
			}
			full := shortest.BellmanFordSearches(g, limit)
			return searchSet{full, shortest.GatherSearches(g.N, full), nil}, nil
		},
	})
}
