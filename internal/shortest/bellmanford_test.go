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

func TestBellmanFord(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(rand.Uint64(), 2))
	for _, tg := range shortesttest.Graphs(t) {
		t.Run(tg.Name, func(t *testing.T) {
			e := tg.Edges
			g := graph.BuildCSR(e)
			if e.N == 0 {
				if _, err := BellmanFord(ctx, g, 0, true); err == nil {
					t.Fatal("search from vertex 0 of an empty graph succeeded")
				}
				return
			}
			for _, s := range shortesttest.Sources(r, e.N) {
				want, negative := shortesttest.BellmanFord(e, s)
				fromGonum, gonumNegative, gonumOK := shortesttest.GonumSingleSource(e, s)
				if gonumOK && gonumNegative != negative {
					t.Fatalf("source %d: gonum and the reference disagree on a negative cycle", s)
				}
				for _, withParents := range []bool{false, true} {
					tree, err := BellmanFord(ctx, g, s, withParents)
					if negative {
						shortesttest.CheckNegativeCycle(t, e, err)
						var nc *NegativeCycleError
						errors.As(err, &nc)
						if !shortesttest.Reachable(g, s, nc.Vertex) {
							t.Fatalf("source %d: cycle through %d is not reachable", s, nc.Vertex)
						}
						continue
					}
					if err != nil {
						t.Fatalf("source %d: %v", s, err)
					}
					if (tree.Parent != nil) != withParents {
						t.Fatalf("asked for parents: %v, got them: %v", withParents, tree.Parent != nil)
					}
					shortesttest.CheckTree(t, e, g, tree, want)
					if gonumOK && !slices.Equal(fromGonum, tree.Dist) {
						t.Fatalf("source %d: distances %v, gonum %v", s, tree.Dist, fromGonum)
					}
				}
			}
		})
	}
}

// TestBellmanFordLongCycle plants a negative cycle through every vertex of
// a long path, so detection must follow parents a long way.
func TestBellmanFordLongCycle(t *testing.T) {
	const n = 2000
	e := graph.NewEdgeList(n, n+n/2)
	for v := range int32(n) {
		e.Add(v, (v+1)%n, 1)
	}
	e.Weight[n-1] = -n // the closing arc makes the ring weigh -1
	r := rand.New(rand.NewPCG(rand.Uint64(), 3))
	for range n / 2 { // chords with large weights
		e.Add(r.Int32N(n), r.Int32N(n), 5*n)
	}
	_, err := BellmanFord(context.Background(), graph.BuildCSR(e), 0, false)
	shortesttest.CheckNegativeCycle(t, e, err)
	var nc *NegativeCycleError
	errors.As(err, &nc)
	if len(nc.Cycle) != n {
		t.Fatalf("cycle of %d vertices, want the ring of %d", len(nc.Cycle), n)
	}
}

func TestBellmanFordCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	g := graph.BuildCSR(shortesttest.Edges(2, [3]int32{0, 1, -1}))
	if _, err := BellmanFord(ctx, g, 0, true); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	if _, err := BellmanFord(context.Background(), g, 2, true); err == nil {
		t.Fatal("source outside the graph: no error")
	}
}
