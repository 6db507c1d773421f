package hierarchy

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pathflow/pathflow/internal/generate"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/graph/graphtest"
)

// TestParallelSweepMatchesSerial: sweeps that settle each level on several
// goroutines (Trees with fewer batches than workers, TreeSweep with
// workers) give the rows of the one-goroutine sweep, byte for byte, with
// and without metric keys, on a road-like graph whose lowest levels are
// larger than a worker's chunk, so that levels really are split.
func TestParallelSweepMatchesSerial(t *testing.T) {
	e, _, err := generate.Road(270, 3)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(7, 140))
	g := graph.BuildCSR(graphtest.WithMetric(r, e, 0, 100))
	h := build(t, g)
	levels := h.Levels()
	largest := 0
	for l := range len(levels) - 1 {
		largest = max(largest, int(levels[l+1]-levels[l]))
	}
	if largest < 2*parallelSweepChunk {
		t.Fatalf("the largest level holds %d vertices: too few to be split into chunks of %d", largest, parallelSweepChunk)
	}
	keyed, err := h.WithMetricKeys()
	if err != nil {
		t.Fatal(err)
	}
	n := int(h.N)
	sources := []int32{0, 17, int32(n / 2), int32(n - 1), 5, 99, 1234, 4321, 77}
	for name, hh := range map[string]*Hierarchy{"plain": h, "keyed": keyed} {
		want := make([]int64, len(sources)*n)
		if err := hh.Trees(sources, want, 1); err != nil {
			t.Fatal(err)
		}
		for _, workers := range []int{2, 3, 16} {
			got := make([]int64, len(sources)*n)
			if err := hh.Trees(sources, got, workers); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s: Trees on %d workers differs from one worker", name, workers)
			}
			sweep := hh.NewTreeSweep(workers)
			for at := 0; at < len(sources); at += TreeLanes {
				batch := sources[at:min(len(sources), at+TreeLanes)]
				if err := sweep.Run(batch); err != nil {
					t.Fatal(err)
				}
				rows := make([]int64, len(batch)*n)
				if err := sweep.Rows(0, len(batch), rows); err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(rows, want[at*n:(at+len(batch))*n]) {
					t.Errorf("%s: TreeSweep on %d workers, sources %v: rows differ from one worker's", name, workers, batch)
				}
			}
		}
	}
}

// TestSelectOnEveryCore: a selection of a hierarchy larger than one chunk
// of Select's parallel passes holds exactly the ids that reach the
// targets down the Down arcs, ascending, each at its position.
func TestSelectOnEveryCore(t *testing.T) {
	e, _, err := generate.Road(270, 5)
	if err != nil {
		t.Fatal(err)
	}
	h := build(t, graph.BuildCSR(e))
	if int(h.N) <= selectChunk {
		t.Fatalf("%d vertices: one chunk of %d holds them all", h.N, selectChunk)
	}
	targets := []int32{3, 1000, 40_000, h.N - 1, 1000}
	sel, err := h.Select(targets)
	if err != nil {
		t.Fatal(err)
	}
	reached := make([]bool, h.N)
	var stack []int32
	for _, v := range targets {
		if r := h.Rank[v]; !reached[r] {
			reached[r] = true
			stack = append(stack, r)
		}
	}
	for len(stack) > 0 {
		r := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, x := range h.Down.Targets[h.Down.Offsets[r]:h.Down.Offsets[r+1]] {
			if !reached[x] {
				reached[x] = true
				stack = append(stack, x)
			}
		}
	}
	var want []int32
	for r, ok := range reached {
		if ok {
			want = append(want, int32(r))
		}
	}
	if !slices.Equal(sel.Vertices, want) {
		t.Fatalf("selection of %d ids, want %d", len(sel.Vertices), len(want))
	}
	for r := range h.N {
		p := sel.Position(r)
		if reached[r] != (p >= 0) || (p >= 0 && sel.Vertices[p] != r) {
			t.Fatalf("id %d at position %d", r, p)
		}
	}
}
