package hierarchy

import (
	"math/rand/v2"
	"testing"

	"github.com/pathflow/pathflow/internal/generate"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/graph/graphtest"
)

// TestBucketsRefill reads rows against one Buckets filled with target
// list after target list (shorter, longer, repeated targets, none) and
// compares each with Dijkstra, so a bucket left over from an earlier fill
// would show.
func TestBucketsRefill(t *testing.T) {
	e, _, err := generate.Road(30, 2)
	if err != nil {
		t.Fatal(err)
	}
	g := graph.BuildCSR(e)
	h := build(t, g)
	rng := rand.New(rand.NewPCG(freshSeed(t), 5))
	sources := randomVertices(rng, g.N, 12)
	refs := make([][]int64, len(sources))
	for i, s := range sources {
		refs[i] = graphtest.Dijkstra(g, s)
	}
	b := NewBuckets(h)
	for round, k := range []int{40, 3, 0, 200, 7} {
		targets := randomVertices(rng, g.N, k)
		if k > 1 {
			targets[k-1] = targets[0] // a repeated target
		}
		if err := b.Fill(targets, 1+round%3); err != nil {
			t.Fatal(err)
		}
		if b.Targets() != k {
			t.Fatalf("round %d: %d targets, want %d", round, b.Targets(), k)
		}
		out := make([]int64, len(sources)*k)
		if err := b.Rows(sources, out, 2); err != nil {
			t.Fatal(err)
		}
		for i := range sources {
			for j, v := range targets {
				if got, want := out[i*k+j], refs[i][v]; got != want {
					t.Fatalf("round %d: %d -> %d is %d, want %d", round, sources[i], v, got, want)
				}
			}
		}
	}
	if err := b.Rows(sources, make([]int64, 1), 1); err == nil {
		t.Error("a buffer of the wrong size was accepted")
	}
	if err := b.Fill([]int32{g.N}, 1); err == nil {
		t.Error("a target outside the graph was accepted")
	}
}
