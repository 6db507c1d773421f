package cpu

import (
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
		searches: checkedSearches(shortest.CheckBellmanFordInput, func(g *graph.CSR, lo int32, _ bool, limit int64) searchSet {
			if lo < 0 {
				// A path may return below the cutoff after leaving it.
				limit = noLimit
			}
			return gathered(g, shortest.BellmanFordSearches(g, limit))
		}),
	})
}
