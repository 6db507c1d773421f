package shortest

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/graph/graphtest"
	"github.com/pathflow/pathflow/internal/paths"
)

// smallestTightParent is the parent rule the GPU backend follows: the
// in-neighbour u of smallest id with dist[u] + w(u, v) == dist[v], or
// NoParent for the source and unreachable vertices. O(m).
func smallestTightParent(e *graph.EdgeList, source int32, dist []int64) []int32 {
	want := make([]int32, e.N)
	for v := range want {
		want[v] = paths.NoParent
	}
	for i := range e.Src {
		u, v := e.Src[i], e.Dst[i]
		if v == source || dist[u] == paths.Unreachable || dist[u]+int64(e.Weight[i]) != dist[v] {
			continue
		}
		if want[v] == paths.NoParent || u < want[v] {
			want[v] = u
		}
	}
	return want
}

// TestDijkstraParentIsTheSmallestTightInNeighbour: over positive weights
// drawn from 1..3, so that most vertices have several shortest paths,
// every parent the CPU's Dijkstra writes, of whole rows and of rows
// narrowed to targets (a search that stops early), is the tight
// in-neighbour of smallest id, the GPU backend's rule: both backends write
// the same parents, so the same files.
func TestDijkstraParentIsTheSmallestTightInNeighbour(t *testing.T) {
	ctx := context.Background()
	seed := rand.Uint64()
	r := rand.New(rand.NewPCG(seed, 7))
	for range 20 {
		n := 2 + r.Int32N(300)
		e := graphtest.RandomGraph(r, n, int(n)*(1+r.IntN(6)), 1, 3, 0)
		g := graph.BuildCSR(e)
		source := r.Int32N(n)
		tree, err := Dijkstra(ctx, g, source, true)
		if err != nil {
			t.Fatal(err)
		}
		want := smallestTightParent(e, source, tree.Dist)
		for v := range want {
			if tree.Parent[v] != want[v] {
				t.Fatalf("seed %d, n %d, source %d: parent of %d is %d, the smallest tight in-neighbour is %d",
					seed, n, source, v, tree.Parent[v], want[v])
			}
		}
		// Targets: the search stops at the last one settled.
		targets := []int32{r.Int32N(n), r.Int32N(n)}
		dist, parent := make([]int64, len(targets)), make([]int32, len(targets))
		search := DijkstraTargetSearches(g, positiveWeights(g), math.MaxInt64)(true)
		if err := search(ctx, source, targets, dist, parent); err != nil {
			t.Fatal(err)
		}
		for i, v := range targets {
			if dist[i] != tree.Dist[v] || parent[i] != want[v] {
				t.Fatalf("seed %d, source %d, target %d: (%d, %d), want (%d, %d)", seed, source, v, dist[i], parent[i], tree.Dist[v], want[v])
			}
		}
	}
}
