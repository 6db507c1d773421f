package paths_test

import (
	"context"
	"slices"
	"testing"

	"github.com/pathflow/pathflow/internal/generate"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/shortest"
)

// TestSpreadParentsMatchOneGoroutine: a row's parents found over ranges of
// the vertices on several goroutines equal those found on one, on a grid
// of small weights (many ties, so the rule's choice is exercised) larger
// than several ranges, with and without arcs of weight zero (where the
// row may need the one-goroutine repair after the spread rule).
func TestSpreadParentsMatchOneGoroutine(t *testing.T) {
	for _, lo := range []int32{1, 0} {
		e, err := generate.Grid(400, lo, 3, 9)
		if err != nil {
			t.Fatal(err)
		}
		g := graph.BuildCSR(e)
		for _, source := range []int32{0, 80_200, int32(g.N) - 1} {
			tree, err := shortest.Dijkstra(context.Background(), g, source, false)
			if err != nil {
				t.Fatal(err)
			}
			one := paths.NewParentFinder(g)
			want := make([]int32, g.N)
			if err := one.Parents(source, tree.Dist, want); err != nil {
				t.Fatal(err)
			}
			for _, workers := range []int{2, 5, 16} {
				spread := paths.NewParentFinder(g)
				spread.Spread(workers)
				for _, f := range []*paths.ParentFinder{spread, spread.Fork()} {
					got := make([]int32, g.N)
					if err := f.Parents(source, tree.Dist, got); err != nil {
						t.Fatal(err)
					}
					if !slices.Equal(got, want) {
						t.Fatalf("weights %d..3, source %d, %d workers: parents differ from one goroutine's", lo, source, workers)
					}
				}
			}
		}
	}
}
