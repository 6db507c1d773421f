package cpu

import (
	"context"
	"fmt"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/shortest"
)

// The CPU runs Johnson's algorithm as potentials over the whole graph,
// then Dijkstra from each requested source on the reweighted arcs; without
// negative weights its searches are Dijkstra's, narrowed and sparse rows
// included.
func init() {
	implementations.Register(backend.AlgorithmJohnson, implementation{
		choose: func(p backend.Problem, c *backend.Choice) error {
			c.Algorithm, c.Reason = p.Algorithm, "requested: Johnson's algorithm, which is Dijkstra from each source without negative weights"
			if p.MinWeight < 0 {
				c.Reason = fmt.Sprintf("requested: Johnson's reweighting (min weight %d), then Dijkstra from each source", p.MinWeight)
			}
			return nil
		},
		check:      noVariant,
		wholeGraph: true,
		searches: func(ctx context.Context, g *graph.CSR, lo int32, positive bool, limit int64) (searchSet, error) {
			full, err := shortest.JohnsonSearches(ctx, g, limit)
			if err != nil {
				return searchSet{}, err
			}
			if lo >= 0 {
				return withDijkstraNarrowed(g, positive, limit, full), nil
			}
			return gathered(g, full), nil
		},
	})
}
