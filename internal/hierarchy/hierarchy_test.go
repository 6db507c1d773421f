package hierarchy

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/datasets"
	"github.com/pathflow/pathflow/formats"
	"github.com/pathflow/pathflow/internal/generate"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/graph/graphtest"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/paths/testgraphs"
)

// freshSeed returns a new seed for this run and logs it so a failure can
// be replayed.
func freshSeed(t *testing.T) uint64 {
	t.Helper()
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	return seed
}

func build(t testing.TB, g *graph.CSR, opts ...Option) *Hierarchy {
	t.Helper()
	h, err := Build(context.Background(), g, opts...)
	if err != nil {
		t.Fatal(err)
	}
	checkStructure(t, h)
	return h
}

// checkStructure checks the invariants the queries rely on: Rank and
// Order are inverse permutations, arcs climb in rank, rows are sorted,
// and each shortcut's middle vertex is below both its ends.
func checkStructure(t testing.TB, h *Hierarchy) {
	t.Helper()
	for r, v := range h.Order {
		if h.Rank[v] != int32(r) {
			t.Fatalf("Rank[Order[%d]] = %d", r, h.Rank[v])
		}
	}
	for _, side := range []struct {
		c    *graph.CSR
		mids []int32
	}{{&h.Up, h.UpMiddle}, {&h.Down, h.DownMiddle}} {
		for r := range h.N {
			row := side.c.Targets[side.c.Offsets[r]:side.c.Offsets[r+1]]
			if !slices.IsSorted(row) {
				t.Fatalf("row %d not sorted: %v", r, row)
			}
			for i, x := range row {
				a := side.c.Offsets[r] + int64(i)
				if x <= r {
					t.Fatalf("arc %d of row %d goes to %d, not up", a, r, x)
				}
				if m := side.mids[a]; m != NoMiddle && (m >= r || m >= x) {
					t.Fatalf("arc %d of row %d (to %d) has middle %d, not below both", a, r, x, m)
				}
			}
		}
	}
}

// checkAll compares every query of h with Dijkstra from the given sources:
// PHAST rows and the parents derived from them, the table, and point
// queries with their unpacked paths.
func checkAll(t *testing.T, name string, g *graph.CSR, h *Hierarchy, sources []int32, targets []int32) {
	t.Helper()
	n := int(g.N)
	want := make([][]int64, len(sources))
	for i, s := range sources {
		want[i] = graphtest.Dijkstra(g, s)
	}
	rows := make([]int64, len(sources)*n)
	if err := h.Trees(sources, rows, 0); err != nil {
		t.Fatal(err)
	}
	// A second call reuses the pooled lanes and must give the same rows.
	again := make([]int64, len(rows))
	if err := h.Trees(sources, again, 0); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rows, again) {
		t.Fatalf("%s: a second PHAST call gave other rows", name)
	}
	pf := paths.NewParentFinder(g)
	parent := make([]int32, n)
	for i, s := range sources {
		row := rows[i*n : (i+1)*n]
		if !slices.Equal(row, want[i]) {
			for v := range row {
				if row[v] != want[i][v] {
					t.Fatalf("%s: PHAST from %d: vertex %d at %d, Dijkstra %d", name, s, v, row[v], want[i][v])
				}
			}
		}
		if err := pf.Parents(s, row, parent); err != nil {
			t.Fatal(err)
		}
		if err := paths.CheckParents(g, &paths.Tree{Source: s, Dist: row, Parent: parent}); err != nil {
			t.Fatalf("%s: parents from %d: %v", name, s, err)
		}
	}
	table, err := h.Table(sources, targets, 0)
	if err != nil {
		t.Fatal(err)
	}
	q := NewQuery(h)
	for i, s := range sources {
		for j, tg := range targets {
			w := want[i][tg]
			if got := table[i*len(targets)+j]; got != w {
				t.Fatalf("%s: table %d -> %d: %d, Dijkstra %d", name, s, tg, got, w)
			}
			if j%7 != 0 {
				continue
			}
			d, path, err := q.Path(s, tg)
			if err != nil {
				t.Fatal(err)
			}
			if d != w {
				t.Fatalf("%s: path %d -> %d: length %d, Dijkstra %d", name, s, tg, d, w)
			}
			if w == paths.Unreachable {
				if path != nil {
					t.Fatalf("%s: path %d -> %d: %v to an unreachable vertex", name, s, tg, path)
				}
				continue
			}
			if length, ok := pathLength(g, path); !ok || length != w || path[0] != s || path[len(path)-1] != tg {
				t.Fatalf("%s: path %d -> %d: %v (length %d, valid %v), want length %d", name, s, tg, path, length, ok, w)
			}
		}
	}
}

// pathLength adds up the lightest arc between consecutive path vertices;
// ok is false when some pair has no arc.
func pathLength(g *graph.CSR, path []int32) (int64, bool) {
	var total int64
	for i := 1; i < len(path); i++ {
		best := int64(-1)
		for a := g.Offsets[path[i-1]]; a < g.Offsets[path[i-1]+1]; a++ {
			if g.Targets[a] == path[i] && (best < 0 || int64(g.Weights[a]) < best) {
				best = int64(g.Weights[a])
			}
		}
		if best < 0 {
			return 0, false
		}
		total += best
	}
	return total, true
}

func randomVertices(rng *rand.Rand, n int32, k int) []int32 {
	vs := make([]int32, k)
	for i := range vs {
		vs[i] = rng.Int32N(n)
	}
	return vs
}

func allVertices(n int32) []int32 {
	vs := make([]int32, n)
	for i := range vs {
		vs[i] = int32(i)
	}
	return vs
}

// rome99 reads rome99 from the dataset mirror; ok is false when the mirror
// does not hold it.
func rome99(t *testing.T) (g *graph.CSR, ok bool) {
	t.Helper()
	path, ok := datasets.MirrorFile("rome99.gr")
	if !ok {
		return nil, false
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	e, err := formats.ReadDIMACS(f, path)
	if err != nil {
		t.Fatal(err)
	}
	return graph.BuildCSR(e), true
}

func TestRome99(t *testing.T) {
	g, ok := rome99(t)
	if !ok {
		t.Skip("rome99.gr not in the dataset mirror")
	}
	for _, ord := range []Ordering{OrderQuotient, OrderEdgeDifference} {
		h := build(t, g, WithOrdering(ord), WithChecksum("rome99"))
		if h.GraphChecksum != "rome99" {
			t.Errorf("checksum %q", h.GraphChecksum)
		}
		// Every source with the default ordering, a random 200 with the
		// other one or in short mode.
		sources := allVertices(g.N)
		if testing.Short() || ord != OrderQuotient {
			sources = randomVertices(rand.New(rand.NewPCG(freshSeed(t), 1)), g.N, 200)
		}
		checkAll(t, "rome99/"+ord.String(), g, h, sources, allVertices(g.N)[:400])
	}
}

func TestRoadGraphs(t *testing.T) {
	seed := freshSeed(t)
	rng := rand.New(rand.NewPCG(seed, 2))
	for _, c := range []struct {
		side int32
		seed uint64
	}{{1, 1}, {2, 1}, {5, 3}, {40, 1}, {40, seed}, {90, seed + 1}} {
		e, vs, err := generate.Road(c.side, c.seed)
		if err != nil {
			t.Fatal(err)
		}
		g := graph.BuildCSR(e)
		for _, workers := range []int{1, 4} {
			opts := []Option{WithWorkers(workers)}
			if workers > 1 {
				opts = append(opts, WithCoordinates(vs.X, vs.Y))
			}
			h := build(t, g, opts...)
			checkAll(t, generate.RoadSpec{Side: c.side, Seed: c.seed}.String(), g, h,
				randomVertices(rng, g.N, 30), randomVertices(rng, g.N, 50))
		}
	}
}

// TestRandomGraphs covers what road graphs lack: one-way arcs, zero
// weights, parallel arcs, self-loops and unreachable vertices.
func TestRandomGraphs(t *testing.T) {
	seed := freshSeed(t)
	rng := rand.New(rand.NewPCG(seed, 3))
	for trial := range 30 {
		n := int32(1 + rng.IntN(120))
		m := rng.IntN(int(4 * n))
		e := graph.NewEdgeList(n, m)
		for range m {
			u, v := rng.Int32N(n), rng.Int32N(n)
			w := rng.Int32N(20)
			if rng.IntN(4) == 0 {
				w = 0
			}
			e.Add(u, v, w)
			if rng.IntN(5) == 0 {
				e.Add(u, v, rng.Int32N(20)) // a parallel arc
			}
		}
		g := graph.BuildCSR(e)
		h := build(t, g, WithWitnessSettled(1+rng.IntN(30)))
		name := "random " + string(rune('a'+trial%26))
		checkAll(t, name, g, h, allVertices(n), allVertices(n))
	}
}

// TestRandomSymmetricGraphs covers the symmetric mode of Build (each arc
// with a reverse of the same weight): two-way arcs with zero weights,
// parallel pairs and self-loops, and tight witness limits; one arc made
// an arc u -> v lighter than any v -> u (one-way, or the lighter of a
// pair) turns the mode off.
func TestRandomSymmetricGraphs(t *testing.T) {
	seed := freshSeed(t)
	rng := rand.New(rand.NewPCG(seed, 4))
	for trial := range 30 {
		n := int32(2 + rng.IntN(150))
		m := rng.IntN(int(3 * n))
		e := graph.NewEdgeList(n, 2*m+1)
		for range m {
			u, v := rng.Int32N(n), rng.Int32N(n)
			w := rng.Int32N(20)
			if rng.IntN(4) == 0 {
				w = 0
			}
			e.Add(u, v, w)
			e.Add(v, u, w)
		}
		g := graph.BuildCSR(e)
		if d, err := newDynGraph(g); err != nil || !d.symmetric {
			t.Fatalf("trial %d: symmetric = false, %v; want true", trial, err)
		}
		h := build(t, g, WithWitnessSettled(1+rng.IntN(30)), WithWorkers(1+rng.IntN(3)))
		name := "symmetric " + string(rune('a'+trial%26))
		checkAll(t, name, g, h, allVertices(n), allVertices(n))

		u, v := rng.Int32N(n), rng.Int32N(n)
		for u == v {
			v = (v + 1) % n
		}
		e.Add(u, v, 1+rng.Int32N(20)) // one-way, or the heavier of a pair
		if d, _ := newDynGraph(graph.BuildCSR(e)); d.symmetric != hasLighterPair(e, u, v) {
			t.Fatalf("trial %d: symmetric = %v after adding %d -> %d", trial, d.symmetric, u, v)
		}
	}
}

// TestSymmetricDownSharesUp: a symmetric graph's Down rows are its Up
// rows, so Build makes them once and Down shares Up's arrays; a graph
// with a one-way arc gets Down arrays of its own.
func TestSymmetricDownSharesUp(t *testing.T) {
	e, _, err := generate.Road(20, 1)
	if err != nil {
		t.Fatal(err)
	}
	shares := func(h *Hierarchy) bool {
		return &h.Down.Offsets[0] == &h.Up.Offsets[0] && &h.Down.Targets[0] == &h.Up.Targets[0] &&
			&h.Down.Weights[0] == &h.Up.Weights[0] && &h.DownMiddle[0] == &h.UpMiddle[0]
	}
	if h := build(t, graph.BuildCSR(e)); !shares(h) {
		t.Error("a road graph's hierarchy has Down arrays of its own")
	}
	e.Add(0, e.N-1, 1)
	if h := build(t, graph.BuildCSR(e)); shares(h) || slices.Equal(h.Up.Targets, h.Down.Targets) {
		t.Error("with a one-way arc, Down still shares or equals Up")
	}
}

// hasLighterPair reports whether e already had arcs u -> v and v -> u at
// most as heavy as the last arc added, which keeps the graph symmetric.
func hasLighterPair(e *graph.EdgeList, u, v int32) bool {
	last := e.M() - 1
	forward, backward := false, false
	for a := range last {
		if e.Src[a] == u && e.Dst[a] == v && e.Weight[a] <= e.Weight[last] {
			forward = true
		}
		if e.Src[a] == v && e.Dst[a] == u {
			backward = true
		}
	}
	return forward && backward
}

func TestNegativeWeightRefused(t *testing.T) {
	e := graph.NewEdgeList(3, 2)
	e.Add(0, 1, 4)
	e.Add(1, 2, -1)
	_, err := Build(context.Background(), graph.BuildCSR(e))
	if err == nil || !strings.Contains(err.Error(), "negative weight") {
		t.Fatalf("got %v, want a negative-weight error", err)
	}
}

// TestShortcutOverflowRefused builds a grid whose arcs weigh just over
// half of MaxInt32: every shortcut, two arcs long at least, overflows the
// int32 weights of the hierarchy and must be refused.
func TestShortcutOverflowRefused(t *testing.T) {
	const side, w = 5, math.MaxInt32/2 + 1
	e := graph.NewEdgeList(side*side, 4*side*side)
	for v := int32(0); v < side*side; v++ {
		if v%side+1 < side {
			e.Add(v, v+1, w)
			e.Add(v+1, v, w)
		}
		if v+side < side*side {
			e.Add(v, v+side, w)
			e.Add(v+side, v, w)
		}
	}
	_, err := Build(context.Background(), graph.BuildCSR(e))
	if err == nil || !strings.Contains(err.Error(), "largest int32 weight") {
		t.Fatalf("got %v, want a shortcut-overflow error", err)
	}
}

func TestBadArguments(t *testing.T) {
	e, _, _ := generate.Road(4, 1)
	h := build(t, graph.BuildCSR(e))
	if _, err := h.Table([]int32{0}, []int32{16}, 0); err == nil {
		t.Error("table: target 16 of 16 vertices accepted")
	}
	if err := paths.NewParentFinder(graph.BuildCSR(e)).Parents(0, make([]int64, 16), make([]int32, 15)); err == nil {
		t.Error("parents: short parent row accepted")
	}
	if err := h.Trees([]int32{0, 1}, make([]int64, 16), 0); err == nil {
		t.Error("trees: short buffer accepted")
	}
	if _, err := NewQuery(h).Distance(-1, 0); err == nil {
		t.Error("query: vertex -1 accepted")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Build(ctx, graph.BuildCSR(e)); err == nil {
		t.Error("build: cancelled context ignored")
	}
}

// TestDeterministic checks that the hierarchy does not depend on the
// number of workers.
func TestDeterministic(t *testing.T) {
	// Large enough for several workers to own blocks of ids (ownerShift).
	side := int32(300)
	if testing.Short() {
		side = 100
	}
	e, _, err := generate.Road(side, freshSeed(t))
	if err != nil {
		t.Fatal(err)
	}
	g := graph.BuildCSR(e)
	a := build(t, g, WithWorkers(1))
	for _, workers := range []int{3, 16} {
		b := build(t, g, WithWorkers(workers))
		if !slices.Equal(a.Order, b.Order) || !slices.Equal(a.Up.Targets, b.Up.Targets) ||
			!slices.Equal(a.Down.Weights, b.Down.Weights) || !slices.Equal(a.UpMiddle, b.UpMiddle) {
			t.Errorf("1 and %d workers built different hierarchies", workers)
		}
	}
}

// TestSharedGraphs runs PHAST with derived parents and the table over the
// shared hand-checked graphs; those with negative arcs must be refused.
func TestSharedGraphs(t *testing.T) {
	for _, tg := range testgraphs.Graphs {
		g := tg.CSR()
		h, err := Build(context.Background(), g)
		if tg.Negative() {
			if err == nil {
				t.Errorf("%s: negative arcs accepted", tg.Name)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tg.Name, err)
		}
		checkStructure(t, h)
		rows := make([]int64, len(tg.Sources)*int(g.N))
		if err := h.Trees(tg.Sources, rows, 0); err != nil {
			t.Fatal(err)
		}
		table, err := h.Table(tg.Sources, allVertices(g.N), 0)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(table, rows) {
			t.Errorf("%s: table %v, PHAST %v", tg.Name, table, rows)
		}
		pf := paths.NewParentFinder(g)
		for i, s := range tg.Sources {
			row := rows[i*int(g.N) : (i+1)*int(g.N)]
			parent := make([]int32, g.N)
			if err := pf.Parents(s, row, parent); err != nil {
				t.Fatal(err)
			}
			if err := tg.Check(i, row, parent); err != nil {
				t.Error(err)
			}
		}
	}
}

func TestMortonKeys(t *testing.T) {
	if got := spread(0xffffffff); got != 0x5555555555555555 {
		t.Errorf("spread(all ones) = %#x", got)
	}
	// (x, y) shifted to start at 0: (0,0) (1,0) (0,1) (1,1) (2,0).
	keys := mortonKeys([]int32{-5, -4, -5, -4, -3}, []int32{7, 7, 8, 8, 7})
	if want := []uint64{0, 1, 2, 3, 4}; !slices.Equal(keys, want) {
		t.Errorf("keys %v, want %v", keys, want)
	}
}

func TestEmptyGraph(t *testing.T) {
	h := build(t, graph.BuildCSR(graph.NewEdgeList(0, 0)))
	if h.N != 0 || h.Shortcuts() != 0 {
		t.Fatalf("empty graph: %d vertices, %d shortcuts", h.N, h.Shortcuts())
	}
	if table, err := h.Table(nil, nil, 0); err != nil || len(table) != 0 {
		t.Errorf("empty table: %v, %v", table, err)
	}
	if err := h.Trees(nil, nil, 0); err != nil {
		t.Error(err)
	}
}

// TestWorkLimitIsDeterministic checks that the work Build counts, and so
// whether WithWorkLimit stops it, does not depend on the number of
// workers: a road graph finishes within a bound that a random graph of 5
// arcs per vertex passes, with the same count and round for 1 and 3
// workers.
func TestWorkLimitIsDeterministic(t *testing.T) {
	road, _, err := generate.Road(60, 1)
	if err != nil {
		t.Fatal(err)
	}
	random, err := generate.RandomDegree(3000, 5, 1, 1000, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		e    *graph.EdgeList
		stop bool
	}{{"road", road, false}, {"random", random, true}} {
		g := graph.BuildCSR(c.e)
		var results []string
		for _, workers := range []int{1, 3} {
			var settled int64
			_, err := Build(context.Background(), g, WithWorkers(workers), WithWorkLimit(300),
				WithProgress(func(p Progress) error { settled = p.Settled; return nil }))
			var over *WorkLimitError
			if stopped := errors.As(err, &over); stopped != c.stop || (err != nil && !stopped) {
				t.Fatalf("%s, %d workers: %v, want stopped %t", c.name, workers, err, c.stop)
			}
			results = append(results, fmt.Sprint(settled, err))
		}
		if results[0] != results[1] {
			t.Errorf("%s: 1 worker %s, 3 workers %s", c.name, results[0], results[1])
		}
	}
}
