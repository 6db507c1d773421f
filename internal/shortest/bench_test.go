package shortest

import (
	"context"
	"testing"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/shortest/shortesttest"
)

var (
	grid512  = shortesttest.GridFixture(512)
	grid2048 = shortesttest.GridFixture(2048)
)

func benchmarkDijkstra(b *testing.B, g *graph.CSR, withParents bool) {
	search := newDijkstraSearch(g.N, positiveWeights(g))
	ctx := context.Background()
	shortesttest.ReportCPU(b, func() {
		if _, err := search.tree(ctx, g, 0, withParents); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkDijkstraGrid512 is one search from a corner of the 512 x 512
// grid (weights 1..1000), distances only.
func BenchmarkDijkstraGrid512(b *testing.B) { benchmarkDijkstra(b, grid512.Get(b), false) }

// BenchmarkDijkstraGrid512Parents is the same search with parents.
func BenchmarkDijkstraGrid512Parents(b *testing.B) { benchmarkDijkstra(b, grid512.Get(b), true) }

// BenchmarkDijkstraGrid2048 is one search with parents from a corner of the
// 2048 x 2048 grid.
func BenchmarkDijkstraGrid2048(b *testing.B) { benchmarkDijkstra(b, grid2048.Get(b), true) }
