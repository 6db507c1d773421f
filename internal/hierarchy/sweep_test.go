package hierarchy

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pathflow/pathflow/internal/generate"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/graph/graphtest"
	"github.com/pathflow/pathflow/internal/paths"
)

// sweepByLevels is the sweep a GPU runs, on the host: seeds from
// UpwardSearches at the selected vertices, then the selection's levels top
// down, every vertex of a level from the values of higher levels only (a
// copy of the level's inputs is taken first, so a vertex that read one of
// its own level would see a stale value and the test would catch it). It
// returns the distances by original id, infinity where not selected.
func sweepByLevels(t *testing.T, h *Hierarchy, sel *Selection, source int32) []int64 {
	t.Helper()
	seeds, err := h.UpwardSearches([]int32{source}, 2)
	if err != nil {
		t.Fatal(err)
	}
	d := make([]int64, len(sel.Vertices))
	for i := range d {
		d[i] = infinity
	}
	for j, r := range seeds[0].Vertices {
		if p := sel.Position(r); p >= 0 {
			d[p] = seeds[0].Dist[j]
		}
	}
	levels := sel.Levels
	for l := len(levels) - 2; l >= 0; l-- {
		before := slices.Clone(d)
		for p := levels[l]; p < levels[l+1]; p++ {
			for a := sel.Down.Offsets[p]; a < sel.Down.Offsets[p+1]; a++ {
				x := sel.Down.Targets[a]
				if x >= levels[l] && x < levels[l+1] {
					t.Fatalf("Down arc %d -> %d joins two positions of level %d", x, p, l)
				}
				if before[x] < infinity {
					d[p] = min(d[p], before[x]+int64(sel.Down.Weights[a]))
				}
			}
		}
	}
	out := make([]int64, h.N)
	for v, r := range h.Rank {
		out[v] = infinity
		if p := sel.Position(r); p >= 0 {
			out[v] = d[p]
		}
	}
	return out
}

// TestSweepByLevelsMatchesDijkstra sweeps whole hierarchies and
// selections for random targets, level by level as the GPU does, and
// compares the distances with Dijkstra's.
func TestSweepByLevelsMatchesDijkstra(t *testing.T) {
	rng := rand.New(rand.NewPCG(freshSeed(t), 5))
	e, vs, err := generate.Road(30, rng.Uint64())
	if err != nil {
		t.Fatal(err)
	}
	road := graph.BuildCSR(e)
	random := graph.NewEdgeList(80, 0)
	for range 240 {
		random.Add(rng.Int32N(80), rng.Int32N(80), rng.Int32N(6)) // zero weights, loops and parallel arcs too
	}
	for _, c := range []struct {
		name string
		g    *graph.CSR
		opts []Option
	}{
		{"road 30", road, []Option{WithCoordinates(vs.X, vs.Y)}},
		{"random 80", graph.BuildCSR(random), nil},
	} {
		h := build(t, c.g, c.opts...)
		targets := randomVertices(rng, c.g.N, 12)
		whole, err := h.Select(nil)
		if err != nil {
			t.Fatal(err)
		}
		part, err := h.Select(targets)
		if err != nil {
			t.Fatal(err)
		}
		if c.name == "road 30" && len(part.Vertices) >= len(whole.Vertices)/2 {
			t.Errorf("%s: 12 targets select %d of %d vertices", c.name, len(part.Vertices), len(whole.Vertices))
		}
		for _, s := range randomVertices(rng, c.g.N, 10) {
			want := graphtest.Dijkstra(c.g, s)
			got := sweepByLevels(t, h, whole, s)
			for v := range want {
				if got[v] != want[v] && !(got[v] == infinity && want[v] == paths.Unreachable) {
					t.Fatalf("%s: from %d to %d: sweep %d, Dijkstra %d", c.name, s, v, got[v], want[v])
				}
			}
			got = sweepByLevels(t, h, part, s)
			for _, v := range targets {
				if got[v] != want[v] && !(got[v] == infinity && want[v] == paths.Unreachable) {
					t.Fatalf("%s: restricted, from %d to %d: sweep %d, Dijkstra %d", c.name, s, v, got[v], want[v])
				}
			}
		}
	}
}

func TestLevelsPartitionTheIds(t *testing.T) {
	e, _, err := generate.Road(20, 1)
	if err != nil {
		t.Fatal(err)
	}
	h := build(t, graph.BuildCSR(e))
	levels := h.Levels()
	if levels[0] != 0 || levels[len(levels)-1] != h.N || len(levels) < 3 {
		t.Fatalf("levels %v for %d vertices", levels, h.N)
	}
	for l := 1; l < len(levels); l++ {
		if levels[l] <= levels[l-1] {
			t.Fatalf("level %d is empty or out of order: %v", l-1, levels)
		}
	}
	if empty := (&Hierarchy{}).Levels(); !slices.Equal(empty, []int32{0}) {
		t.Errorf("an empty hierarchy's levels: %v", empty)
	}
}

// TestLevelsHoldNoDownArc: on directed random graphs (zero weights, loops
// and parallel arcs) every Down arc climbs from one range into a higher
// one, which is what lets a sweep settle a range at once; and on a
// symmetric road-like graph the ranges found from the Down rows alone are
// those found from both directions' rows.
func TestLevelsHoldNoDownArc(t *testing.T) {
	rng := rand.New(rand.NewPCG(freshSeed(t), 11))
	for trial := range 20 {
		n := int32(20 + rng.IntN(200))
		e := graph.NewEdgeList(n, 0)
		for range 4 * int(n) {
			e.Add(rng.Int32N(n), rng.Int32N(n), rng.Int32N(6))
		}
		h := build(t, graph.BuildCSR(e))
		levels := h.Levels()
		rangeOf := make([]int, h.N)
		for l := range len(levels) - 1 {
			for r := levels[l]; r < levels[l+1]; r++ {
				rangeOf[r] = l
			}
		}
		for r := range h.N {
			for _, x := range h.Down.Targets[h.Down.Offsets[r]:h.Down.Offsets[r+1]] {
				if rangeOf[x] <= rangeOf[r] {
					t.Fatalf("trial %d: Down arc %d -> %d within or below range %d (levels %v)", trial, x, r, rangeOf[r], levels)
				}
			}
		}
	}
	e, _, err := generate.Road(40, rng.Uint64())
	if err != nil {
		t.Fatal(err)
	}
	h := build(t, graph.BuildCSR(e))
	if got, want := h.Levels(), levelsOfBothDirections(h); !slices.Equal(got, want) {
		t.Errorf("road 40: %d ranges from the Down rows, %d from both directions", len(got)-1, len(want)-1)
	}
}

// levelsOfBothDirections is Levels cut where the next id is the lowest
// Up or Down neighbour above an id of the range.
func levelsOfBothDirections(h *Hierarchy) []int32 {
	starts := []int32{0}
	bound := h.N
	for r := range h.N {
		if r > 0 && r >= bound {
			starts = append(starts, r)
			bound = h.N
		}
		for _, c := range []*graph.CSR{&h.Up, &h.Down} {
			if a, b := c.Offsets[r], c.Offsets[r+1]; a < b {
				bound = min(bound, c.Targets[a])
			}
		}
	}
	return append(starts, h.N)
}
