package cpu

import (
	"fmt"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/shortest"
)

// The CPU runs Dijkstra from each requested source, one search per worker;
// narrowed rows stop at their last target and sparse rows at the cutoff.
func init() {
	implementations.Register(backend.AlgorithmDijkstra, implementation{
		choose: asRequested("requested: Dijkstra from each source", dijkstraNegativeWeight),
		check:  noVariant,
		searches: checkedSearches(shortest.CheckDijkstraInput, func(g *graph.CSR, _ int32, positive bool, limit int64) searchSet {
			return withDijkstraNarrowed(g, positive, limit, shortest.DijkstraSearches(g, positive, limit))
		}),
	})
}

// dijkstraNegativeWeight is the error for a graph with a negative arc,
// which Dijkstra's searches would settle too early.
func dijkstraNegativeWeight(lo int32) error {
	return fmt.Errorf("cpu: dijkstra needs non-negative weights and the graph has an arc of weight %d; use bellman-ford (%w, %w)",
		lo, shortest.ErrNegativeWeight, backend.ErrUnsupported)
}
