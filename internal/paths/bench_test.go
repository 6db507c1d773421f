package paths_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/pathflow/pathflow/internal/generate"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/shortest"
)

// BenchmarkParents times one whole row's parents on a 1M-vertex
// road-like graph, by the rule over a reverse graph and from the arcs'
// tails, on one goroutine and spread over four.
func BenchmarkParents(b *testing.B) {
	e, _, err := generate.Road(1000, 1)
	if err != nil {
		b.Fatal(err)
	}
	g := graph.BuildCSR(e)
	tree, err := shortest.Dijkstra(context.Background(), g, g.N/2, false)
	if err != nil {
		b.Fatal(err)
	}
	parent := make([]int32, g.N)
	for _, c := range []struct {
		name string
		make func(*graph.CSR) *paths.ParentFinder
	}{{"in-arcs", paths.NewParentFinder}, {"out-arcs", paths.NewParentFinderOnOutArcs}} {
		for _, workers := range []int{1, 4} {
			f := c.make(g)
			f.Spread(workers)
			b.Run(fmt.Sprintf("%s/workers=%d", c.name, workers), func(b *testing.B) {
				for b.Loop() {
					if err := f.Parents(g.N/2, tree.Dist, parent); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
