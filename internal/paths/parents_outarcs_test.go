package paths_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/pathflow/pathflow/internal/generate"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/shortest"
)

// outArcGraphs are graphs for comparing the parent rule on out-arcs with
// the rule on in-arcs: grids of small weights (many ties) larger than
// several ranges of a spread row, with and without arcs of weight zero,
// and a small graph with a loop and parallel arcs.
func outArcGraphs(t *testing.T) map[string]*graph.CSR {
	t.Helper()
	gs := map[string]*graph.CSR{}
	for _, lo := range []int32{1, 0} {
		e, err := generate.Grid(400, lo, 3, 9)
		if err != nil {
			t.Fatal(err)
		}
		gs[fmt.Sprintf("grid weights %d..3", lo)] = graph.BuildCSR(e)
	}
	gs["loop and parallel arcs"] = graph.BuildCSR(&graph.EdgeList{N: 5,
		Src:    []int32{0, 0, 1, 1, 2, 2, 3, 0, 4},
		Dst:    []int32{1, 1, 1, 2, 3, 3, 2, 2, 0},
		Weight: []int32{2, 1, 0, 1, 1, 1, 0, 2, 1},
	})
	return gs
}

// TestParentsOnOutArcsMatchInArcs: the parent rule applied from the tails
// of the arcs, on one goroutine and spread over several, finds the
// parents the rule over a reverse graph finds, for sources at a corner, in
// the middle and at the far corner (the last two leave vertices
// unreachable on the small graph).
func TestParentsOnOutArcsMatchInArcs(t *testing.T) {
	for name, g := range outArcGraphs(t) {
		for _, source := range []int32{0, int32(g.N) / 2, int32(g.N) - 1} {
			tree, err := shortest.Dijkstra(context.Background(), g, source, false)
			if err != nil {
				t.Fatal(err)
			}
			want := make([]int32, g.N)
			if err := paths.NewParentFinder(g).Parents(source, tree.Dist, want); err != nil {
				t.Fatal(err)
			}
			for _, workers := range []int{1, 2, 5, 16} {
				f := paths.NewParentFinderOnOutArcs(g)
				f.Spread(workers)
				for _, f := range []*paths.ParentFinder{f, f.Fork()} {
					got := slices.Repeat([]int32{7}, int(g.N)) // not NoParent: every cell must be written
					if err := f.Parents(source, tree.Dist, got); err != nil {
						t.Fatal(err)
					}
					if !slices.Equal(got, want) {
						t.Fatalf("%s, source %d, %d workers: parents on out-arcs differ from those on in-arcs", name, source, workers)
					}
				}
			}
		}
	}
}

// TestKeyedParentsOnOutArcsMatchInArcs: the same on rows of key sums
// (a metric beside the weights, some of it zero, so ties of weight are
// broken by the metric), against NewKeyedParentFinder.
func TestKeyedParentsOnOutArcsMatchInArcs(t *testing.T) {
	e, err := generate.Grid(300, 1, 3, 5)
	if err != nil {
		t.Fatal(err)
	}
	g := graph.BuildCSR(e)
	g.Metric = make([]int32, len(g.Weights))
	for a := range g.Metric {
		g.Metric[a] = int32(a * 7919 % 4)
	}
	keys, _, err := graph.MetricKeys(g.Weights, g.Metric)
	if err != nil {
		t.Fatal(err)
	}
	for _, source := range []int32{0, int32(g.N) / 2} {
		dist := keySums(g, keys, source)
		want := make([]int32, g.N)
		in, err := paths.NewKeyedParentFinder(g)
		if err != nil {
			t.Fatal(err)
		}
		if err := in.Parents(source, dist, want); err != nil {
			t.Fatal(err)
		}
		for _, workers := range []int{1, 4} {
			out, err := paths.NewKeyedParentFinderOnOutArcs(g)
			if err != nil {
				t.Fatal(err)
			}
			out.Spread(workers)
			got := make([]int32, g.N)
			if err := out.Parents(source, dist, got); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("source %d, %d workers: keyed parents on out-arcs differ from those on in-arcs", source, workers)
			}
		}
	}
}

// keySums is the shortest distance in keys from source to every vertex,
// by Bellman-Ford rounds (the test's graphs are small).
func keySums(g *graph.CSR, keys []int64, source int32) []int64 {
	dist := slices.Repeat([]int64{paths.Unreachable}, int(g.N))
	dist[source] = 0
	for changed := true; changed; {
		changed = false
		for u := range g.N {
			if dist[u] == paths.Unreachable {
				continue
			}
			for a := g.Offsets[u]; a < g.Offsets[u+1]; a++ {
				if v := g.Targets[a]; dist[u]+keys[a] < dist[v] {
					dist[v], changed = dist[u]+keys[a], true
				}
			}
		}
	}
	return dist
}

// TestParents32MatchParents: rows of int32 distances (graph.Inf32 for no
// path) get the parents of the same rows in int64, over in-arcs and
// out-arcs, on one goroutine and spread, on graphs with ties, arcs of
// weight zero that close rings (so rows are repaired), and unreachable
// vertices.
func TestParents32MatchParents(t *testing.T) {
	gs := outArcGraphs(t)
	gs["zero ring"] = graph.BuildCSR(&graph.EdgeList{N: 6,
		Src:    []int32{0, 1, 2, 3, 1, 4},
		Dst:    []int32{1, 2, 3, 1, 4, 1},
		Weight: []int32{5, 0, 0, 0, 2, 0},
	})
	for name, g := range gs {
		for _, source := range []int32{0, int32(g.N) / 2, int32(g.N) - 1} {
			tree, err := shortest.Dijkstra(context.Background(), g, source, false)
			if err != nil {
				t.Fatal(err)
			}
			narrow := make([]int32, g.N)
			for v, d := range tree.Dist {
				narrow[v] = graph.Inf32
				if d != paths.Unreachable {
					narrow[v] = int32(d)
				}
			}
			for _, f := range []*paths.ParentFinder{paths.NewParentFinder(g), paths.NewParentFinderOnOutArcs(g)} {
				for _, workers := range []int{1, 5} {
					f.Spread(workers)
					want := make([]int32, g.N)
					if err := f.Parents(source, tree.Dist, want); err != nil {
						t.Fatal(err)
					}
					got := slices.Repeat([]int32{7}, int(g.N)) // every cell must be written
					if err := f.Parents32(source, narrow, got); err != nil {
						t.Fatal(err)
					}
					if !slices.Equal(got, want) {
						t.Fatalf("%s, source %d, %d workers: parents of the int32 row differ from the int64 row's", name, source, workers)
					}
				}
			}
		}
	}
}
