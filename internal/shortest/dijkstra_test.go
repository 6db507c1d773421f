package shortest

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/shortest/shortesttest"
)

func TestDijkstra(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(rand.Uint64(), 1))
	for _, tg := range shortesttest.Graphs(t) {
		t.Run(tg.Name, func(t *testing.T) {
			e := tg.Edges
			g := graph.BuildCSR(e)
			if e.N == 0 {
				if _, err := Dijkstra(ctx, g, 0, true); err == nil {
					t.Fatal("search from vertex 0 of an empty graph succeeded")
				}
				return
			}
			for _, s := range shortesttest.Sources(r, e.N) {
				for _, withParents := range []bool{false, true} {
					tree, err := Dijkstra(ctx, g, s, withParents)
					if e.HasNegativeWeight() {
						if !errors.Is(err, ErrNegativeWeight) {
							t.Fatalf("negative weights gave error %v, want ErrNegativeWeight", err)
						}
						return
					}
					if err != nil {
						t.Fatal(err)
					}
					if (tree.Parent != nil) != withParents {
						t.Fatalf("asked for parents: %v, got them: %v", withParents, tree.Parent != nil)
					}
					want, negative := shortesttest.BellmanFord(e, s)
					if negative {
						t.Fatal("reference found a negative cycle in a graph without negative weights")
					}
					shortesttest.CheckTree(t, e, g, tree, want)
					if fromGonum, _, ok := shortesttest.GonumSingleSource(e, s); ok && !slices.Equal(fromGonum, tree.Dist) {
						t.Fatalf("source %d: distances %v, gonum %v", s, tree.Dist, fromGonum)
					}
				}
			}
		})
	}
}

func TestDijkstraRejectsBadInput(t *testing.T) {
	ctx := context.Background()
	g := graph.BuildCSR(shortesttest.Edges(3, [3]int32{0, 1, 1}))
	for _, s := range []int32{-1, 3} {
		if _, err := Dijkstra(ctx, g, s, false); err == nil {
			t.Errorf("source %d: no error", s)
		}
	}
	bad := []*graph.CSR{
		nil,
		{N: 2, Offsets: []int64{0, 1}, Targets: []int32{1}, Weights: []int32{1}},       // short offsets
		{N: 2, Offsets: []int64{0, 1, 1}, Targets: []int32{5}, Weights: []int32{1}},    // target out of range
		{N: 2, Offsets: []int64{0, 1, 2}, Targets: []int32{1}, Weights: []int32{1}},    // offsets past the arcs
		{N: 2, Offsets: []int64{0, 2, 1}, Targets: []int32{1}, Weights: []int32{1}},    // decreasing
		{N: 2, Offsets: []int64{0, 1, 1}, Targets: []int32{1}, Weights: []int32{1, 2}}, // weights longer
		{N: -1, Offsets: []int64{0}}, // negative n
	}
	for i, g := range bad {
		if _, err := Dijkstra(ctx, g, 0, false); err == nil {
			t.Errorf("malformed graph %d: no error", i)
		}
	}
	valid := &graph.CSR{N: 2, Offsets: []int64{0, 1, 2}, Targets: []int32{1, 0}, Weights: []int32{1, 2}}
	if _, err := Dijkstra(ctx, valid, 0, false); err != nil {
		t.Errorf("valid graph: %v", err)
	}
}

func TestDijkstraCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	g := graph.BuildCSR(shortesttest.Edges(2, [3]int32{0, 1, 1}))
	if _, err := Dijkstra(ctx, g, 0, true); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	// The search state is clean again: the next search works.
	s := newDijkstraSearch(g.N, positiveWeights(g))
	if _, err := s.tree(ctx, g, 0, true); err == nil {
		t.Fatal("cancelled search succeeded")
	}
	tree, err := s.tree(context.Background(), g, 0, true)
	if err != nil || tree.Dist[1] != 1 {
		t.Fatalf("search after a cancelled one: %v, %v", tree, err)
	}
}
