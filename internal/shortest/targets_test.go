package shortest

import (
	"context"
	"testing"

	"github.com/pathflow/pathflow/internal/generate"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
)

// A target search clears what it wrote: the next row, from another
// source, sees a clean scratch row, also after a search stopped early at
// its targets or at the cutoff.
func TestDijkstraTargetSearchReusesItsScratch(t *testing.T) {
	e, err := generate.Grid(12, 1, 9, 3)
	if err != nil {
		t.Fatal(err)
	}
	g := graph.BuildCSR(e)
	for _, limit := range []int64{1 << 40, 15} {
		search := DijkstraTargetSearches(g, positiveWeights(g), limit)(true)
		for s := range g.N {
			targets := []int32{(s + 7) % g.N, s, (s * 5) % g.N}
			dist, parent := make([]int64, len(targets)), make([]int32, len(targets))
			for j := range dist {
				dist[j], parent[j] = paths.Unreachable, paths.NoParent
			}
			if err := search(context.Background(), s, targets, dist, parent); err != nil {
				t.Fatal(err)
			}
			tree := paths.NewTree(g.N, s, true)
			if err := dijkstraInto(context.Background(), newDijkstraSearch(g.N, positiveWeights(g)), g.Offsets, g.Targets, g.Weights, s, tree.Dist, tree.Parent, plainRow, limit, nil); err != nil {
				t.Fatal(err)
			}
			for j, v := range targets {
				if dist[j] != tree.Dist[v] || parent[j] != tree.Parent[v] {
					t.Fatalf("limit %d, source %d, target %d: (%d, %d), want (%d, %d)", limit, s, v, dist[j], parent[j], tree.Dist[v], tree.Parent[v])
				}
			}
		}
	}
}
