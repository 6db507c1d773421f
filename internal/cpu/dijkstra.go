package cpu

import (
	"context"
	"fmt"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/shortest"
)

// The CPU runs Dijkstra from each requested source, one search per worker;
// narrowed rows stop at their last target and sparse rows at the cutoff.
func init() {
	implementations.Register(backend.AlgorithmDijkstra, implementation{
		choose: func(p backend.Problem, c *backend.Choice) error {
			if p.MinWeight < 0 {
				return fmt.Errorf("cpu: dijkstra needs non-negative weights and the graph has an arc of weight %d; use bellman-ford (%w, %w)",
					p.MinWeight, shortest.ErrNegativeWeight, backend.ErrUnsupported)
			}
			c.Algorithm, c.Reason = p.Algorithm, "requested: Dijkstra from each source"
			return nil
		},
		check: noVariant,
		searches: func(_ context.Context, g *graph.CSR, _ int32, positive bool, limit int64) (searchSet, error) {
			if err := shortest.CheckDijkstraInput(g); err != nil {
				return searchSet{}, err
			}
			return searchSet{shortest.DijkstraSearches(g, positive, limit), shortest.DijkstraTargetSearches(g, positive, limit), shortest.DijkstraCellSearches(g, positive, limit)}, nil
		},
	})
}
