package hierarchy

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/graph/graphtest"
	"github.com/pathflow/pathflow/internal/paths"
)

// isWide reports whether a sweep state holds wide lanes.
func isWide(p lanesState) bool {
	_, wide := p.(*phastLanes[int64])
	return wide
}

// sweepRowsAtWidth returns the rows of sources at one width, by Trees on
// workers goroutines and by a TreeSweep a batch at a time (which must
// agree), and whether the TreeSweep ended on wide lanes.
func sweepRowsAtWidth(t *testing.T, h *Hierarchy, sources []int32, workers int, wide bool) (rows []int64, endedWide bool) {
	t.Helper()
	n := int(h.N)
	rows = make([]int64, len(sources)*n)
	if err := h.trees(sources, rows, workers, wide); err != nil {
		t.Fatal(err)
	}
	sweep := h.newTreeSweep(workers, wide)
	for at := 0; at < len(sources); at += TreeLanes {
		batch := sources[at:min(len(sources), at+TreeLanes)]
		if err := sweep.Run(batch); err != nil {
			t.Fatal(err)
		}
		got := make([]int64, len(batch)*n)
		if err := sweep.Rows(0, len(batch), got); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, rows[at*n:(at+len(batch))*n]) {
			t.Fatalf("wide %v: TreeSweep rows of sources %v differ from Trees'", wide, batch)
		}
	}
	return rows, isWide(sweep.p)
}

// selectionAtWidth returns the distances from sources to columns by a
// SelectionSweep at one width, and whether it ended on wide lanes.
func selectionAtWidth(t *testing.T, h *Hierarchy, sources, columns []int32, wide bool) (dist []int64, endedWide bool) {
	t.Helper()
	sel, err := h.Select(columns)
	if err != nil {
		t.Fatal(err)
	}
	sweep := h.newSelectionSweep(sel, wide)
	for at := 0; at < len(sources); at += TreeLanes {
		batch := sources[at:min(len(sources), at+TreeLanes)]
		if err := sweep.Run(batch); err != nil {
			t.Fatal(err)
		}
		for i := range batch {
			for _, c := range columns {
				dist = append(dist, sweep.Distance(i, c))
			}
		}
	}
	return dist, isWide(sweep.p)
}

// checkWidthsAgree checks that narrow and wide lanes give the same rows
// and the same selected distances for sources, and that these are
// Dijkstra's; it returns whether the narrow sweeps moved to wide lanes.
func checkWidthsAgree(t *testing.T, name string, g *graph.CSR, h *Hierarchy, sources []int32) (spilled bool) {
	t.Helper()
	n := int(h.N)
	wide, stayedWide := sweepRowsAtWidth(t, h, sources, 1, true)
	if !stayedWide {
		t.Fatalf("%s: a wide sweep ended on narrow lanes", name)
	}
	for _, workers := range []int{1, 3} {
		narrow, endedWide := sweepRowsAtWidth(t, h, sources, workers, false)
		if !slices.Equal(narrow, wide) {
			for i := range narrow {
				if narrow[i] != wide[i] {
					t.Fatalf("%s, %d workers: source %d to %d: narrow lanes %d, wide %d", name, workers, sources[i/n], i%n, narrow[i], wide[i])
				}
			}
		}
		spilled = spilled || endedWide
	}
	for i, s := range sources {
		if want := graphtest.Dijkstra(g, s); !slices.Equal(wide[i*n:(i+1)*n], want) {
			t.Fatalf("%s: the rows of source %d are not Dijkstra's", name, s)
		}
	}
	columns := sources[:min(len(sources), 5)]
	wideSel, _ := selectionAtWidth(t, h, sources, columns, true)
	narrowSel, selWide := selectionAtWidth(t, h, sources, columns, false)
	if !slices.Equal(narrowSel, wideSel) {
		t.Fatalf("%s: a selection's distances differ between narrow and wide lanes", name)
	}
	for i := range sources {
		for j, c := range columns {
			if got, want := wideSel[i*len(columns)+j], wide[i*n+int(c)]; got != want {
				t.Fatalf("%s: selection %d -> %d: %d, the rows say %d", name, sources[i], c, got, want)
			}
		}
	}
	far := false // a selected distance narrow lanes cannot hold
	for _, d := range wideSel {
		far = far || (d >= narrowLimit && d != paths.Unreachable)
	}
	if far && !selWide || selWide && !spilled {
		t.Fatalf("%s: the selection moved to wide lanes: %v, with distances past 2^31 - 2: %v, the trees moved: %v", name, selWide, far, spilled)
	}
	return spilled
}

// TestNarrowLanesEqualWide: on random graphs and rome99, whose distances
// fit narrow lanes, the narrow sweeps give the wide sweeps' rows (and
// Dijkstra's) and stay narrow.
func TestNarrowLanesEqualWide(t *testing.T) {
	r := rand.New(rand.NewPCG(freshSeed(t), 31))
	for i, size := range []struct {
		n, m   int32
		hi     int32
		shifts int32
	}{{60, 200, 9, 0}, {300, 1200, 1000, 0}, {500, 1500, 100_000, 0}, {400, 2400, 50, 0}} {
		g := graph.BuildCSR(graphtest.RandomGraph(r, size.n, int(size.m), 0, size.hi, size.shifts))
		h := build(t, g)
		sources := randomVertices(r, g.N, 21)
		if checkWidthsAgree(t, "random", g, h, sources) {
			t.Fatalf("random graph %d: narrow lanes moved to wide ones on distances below 2^31", i)
		}
	}
	g, ok := rome99(t)
	if !ok {
		t.Log("rome99.gr not in the dataset mirror: random graphs only")
		return
	}
	h := build(t, g)
	if checkWidthsAgree(t, "rome99", g, h, randomVertices(r, g.N, 40)) {
		t.Fatal("rome99: narrow lanes moved to wide ones")
	}
}

// addHeavyTree adds to e, from vertex first on, a tree whose root has
// fans[0] children, each of them fans[1], and so on, each child joined to
// its parent both ways by arcs of lo..hi. The fans shrink going down, so
// by edge difference the leaves go first, then their parents, which then
// have one neighbour left, and so on up: its hierarchy needs no shortcut
// and holds int32 weights while leaf-to-leaf distances through the root
// pass 2^31: from the upward searches (leaf to root) when len(fans) x lo
// does, else from the sweep when 2 x len(fans) x lo does. It returns its
// leaves.
func addHeavyTree(r *rand.Rand, e *graph.EdgeList, first int32, fans []int, lo, hi int32) []int32 {
	weight := func() int32 { return lo + int32(r.Int64N(int64(hi)-int64(lo)+1)) }
	level := []int32{first}
	next := first + 1
	for _, fan := range fans {
		var below []int32
		for _, parent := range level {
			for range fan {
				w := weight()
				e.Add(parent, next, w)
				e.Add(next, parent, w)
				below = append(below, next)
				next++
			}
		}
		level = below
	}
	return level
}

// heavyTreeSize is the number of vertices addHeavyTree adds.
func heavyTreeSize(fans []int) int32 {
	size, level := 1, 1
	for _, fan := range fans {
		level *= fan
		size += level
	}
	return int32(size)
}

// TestNarrowLanesMoveToWide: on graphs whose distances pass 2^31 (in the
// sweep, in the upward searches, or past 2^32 there), narrow sweeps
// notice it, sweep again on wide lanes and give the wide rows, which are
// Dijkstra's; a batch whose distances fit stays narrow.
func TestNarrowLanesMoveToWide(t *testing.T) {
	r := rand.New(rand.NewPCG(freshSeed(t), 32))
	for _, c := range []struct {
		name   string
		fans   []int
		lo, hi int32
	}{
		{"past 2^31 in the sweep", []int{8, 3}, 600_000_000, math.MaxInt32 / 2},
		{"past 2^31 going up", []int{8, 3}, 1_100_000_000, math.MaxInt32},
		{"past 2^32 going up", []int{6, 3, 2}, 1_500_000_000, math.MaxInt32},
	} {
		e := graph.NewEdgeList(heavyTreeSize(c.fans), 0)
		ends := addHeavyTree(r, e, 0, c.fans, c.lo, c.hi)
		g := graph.BuildCSR(e)
		h := build(t, g, WithOrdering(OrderEdgeDifference))
		sources := append([]int32{0, 1}, ends[:15]...)
		if !checkWidthsAgree(t, c.name, g, h, sources) {
			t.Fatalf("%s: the narrow sweeps stayed narrow", c.name)
		}
	}

	// Two components, one light, one heavy: the light sources' batch
	// fits, the heavy ones' does not.
	both := graphtest.RandomGraph(r, 200, 800, 0, 1000, 0)
	fans := []int{8, 3}
	both.N = 200 + heavyTreeSize(fans)
	heavySources := addHeavyTree(r, both, 200, fans, 600_000_000, math.MaxInt32/2)[:TreeLanes]
	g := graph.BuildCSR(both)
	h := build(t, g, WithOrdering(OrderEdgeDifference))
	lightSources := randomVertices(r, 200, TreeLanes)
	s := newUpSearch(h.N)
	for _, c := range []struct {
		sources []int32
		spills  bool
	}{{lightSources, false}, {heavySources, true}} {
		p := newNarrowLanes(int(h.N))
		h.sweepBatch(s, p, c.sources, 1)
		if p.spilled() != c.spills {
			t.Fatalf("narrow sweep of sources %v: spilled %v, want %v", c.sources, p.spilled(), c.spills)
		}
	}
	checkWidthsAgree(t, "light and heavy", g, h, append(slices.Clone(lightSources), heavySources...))
}

// TestNarrowLimit: a distance of narrowLimit - 1 stays in narrow lanes, one
// of narrowLimit moves the sweep to wide lanes, whether the upward search
// or the sweep finds it; the rows are Dijkstra's either way.
func TestNarrowLimit(t *testing.T) {
	for _, total := range []int64{narrowLimit - 1, narrowLimit} {
		// 0 -> 1 -> 2 -> 3 with the distance from 0 to 3 total, and
		// back, so that some distances come down the sweep.
		e := graph.NewEdgeList(4, 6)
		first := int32(total / 3)
		second := int32(total / 3)
		third := int32(total - int64(first) - int64(second))
		e.Add(0, 1, first)
		e.Add(1, 2, second)
		e.Add(2, 3, third)
		e.Add(3, 2, third)
		e.Add(2, 1, second)
		e.Add(1, 0, first)
		g := graph.BuildCSR(e)
		h := build(t, g)
		for _, src := range []int32{0, 3} {
			p := newNarrowLanes(int(h.N))
			h.sweepBatch(newUpSearch(h.N), p, []int32{src}, 1)
			if want := total >= narrowLimit; p.spilled() != want {
				t.Fatalf("distance %d from %d: spilled %v, want %v", total, src, p.spilled(), want)
			}
			rows, _ := sweepRowsAtWidth(t, h, []int32{src}, 1, false)
			if want := graphtest.Dijkstra(g, src); !slices.Equal(rows, want) {
				t.Fatalf("distance %d from %d: rows %v, Dijkstra %v", total, src, rows, want)
			}
		}
	}
}

// TestNarrowSeedLimit: a seed narrow lanes cannot hold makes them unfit
// at once, whatever the sweep then stores: one of 2^32 or more would
// otherwise be stored cut to 32 bits.
func TestNarrowSeedLimit(t *testing.T) {
	for _, c := range []struct {
		dist  int64
		unfit bool
	}{{narrowLimit - 1, false}, {narrowLimit, true}, {narrowUnreached + 5, true}, {1 << 40, true}} {
		p := newNarrowLanes(4)
		p.begin()
		p.seed(2, 3, c.dist)
		if p.spilled() != c.unfit {
			t.Errorf("seed %d: spilled %v, want %v", c.dist, p.spilled(), c.unfit)
		}
	}
}

// TestTreeSweepBytesFollowWidth: a sweep state's bytes are those of its
// lanes: 32 a vertex narrow, 64 on metric keys.
func TestTreeSweepBytesFollowWidth(t *testing.T) {
	r := rand.New(rand.NewPCG(freshSeed(t), 33))
	g := graph.BuildCSR(graphtest.WithMetric(r, graphtest.RandomGraph(r, 100, 400, 0, 50, 0), 0, 20))
	h := build(t, g)
	keyed, err := h.WithMetricKeys()
	if err != nil {
		t.Fatal(err)
	}
	if isWide(h.NewTreeSweep(1).p) || !isWide(keyed.NewTreeSweep(1).p) {
		t.Fatal("a plain hierarchy's sweep must start narrow, a keyed one's wide")
	}
	if got := h.TreeSweepBytes(); got != 32*int64(h.N) {
		t.Errorf("narrow sweep state: %d bytes for %d vertices", got, h.N)
	}
	if got := keyed.TreeSweepBytes(); got != 64*int64(h.N) {
		t.Errorf("keyed sweep state: %d bytes for %d vertices", got, h.N)
	}
}

// TestSeedsFrom: a sweep of rows below hi starts at the first seeded
// vertex below hi, in a list from the highest vertex down.
func TestSeedsFrom(t *testing.T) {
	seeded := []int32{90, 50, 49, 10}
	for _, c := range []struct{ hi, want int }{{100, 0}, {91, 0}, {90, 1}, {51, 1}, {50, 2}, {49, 3}, {11, 3}, {10, 4}, {0, 4}} {
		if got := seedsFrom(seeded, c.hi); got != c.want {
			t.Errorf("seedsFrom(%v, %d) = %d, want %d", seeded, c.hi, got, c.want)
		}
	}
	if got := seedsFrom(nil, 5); got != 0 {
		t.Errorf("seedsFrom(nil, 5) = %d", got)
	}
}

// TestRows32: a sweep's rows copied at 4 bytes are its rows at 8, with
// graph.Inf32 for no path, on narrow lanes and on the wide ones a sweep
// moves to, on graphs with unreachable vertices; a row with a distance of
// graph.Inf32 or more is reported as not fitting, one just below fits.
func TestRows32(t *testing.T) {
	r := rand.New(rand.NewPCG(freshSeed(t), 21))
	e := graph.NewEdgeList(300, 0)
	for range 700 {
		e.Add(r.Int32N(300), r.Int32N(300), r.Int32N(1000))
	}
	g := graph.BuildCSR(e)
	h := build(t, g)
	sources := []int32{0, 1, 2, 150, 299, 7, 8, 9}
	for _, wide := range []bool{false, true} {
		sweep := h.newTreeSweep(2, wide)
		if err := sweep.Run(sources); err != nil {
			t.Fatal(err)
		}
		want := make([]int64, 3*int(h.N))
		if err := sweep.Rows(2, 3, want); err != nil {
			t.Fatal(err)
		}
		got := make([]int32, 3*int(h.N))
		fits, err := sweep.Rows32(2, 3, got)
		if err != nil || !fits {
			t.Fatalf("wide %t: Rows32 fits %t, %v", wide, fits, err)
		}
		unreached := 0
		for i, d := range want {
			w := graph.Inf32
			if d != paths.Unreachable {
				w = int32(d)
			} else {
				unreached++
			}
			if got[i] != w {
				t.Fatalf("wide %t: cell %d: %d at 4 bytes, %d at 8", wide, i, got[i], d)
			}
		}
		if unreached == 0 {
			t.Fatal("no vertex unreachable: the test graph leaves some")
		}
	}
	for _, c := range []struct {
		total int64
		fits  bool
	}{{int64(graph.Inf32) - 1, true}, {int64(graph.Inf32), false}} {
		e := graph.NewEdgeList(3, 2)
		e.Add(0, 1, int32(c.total/2))
		e.Add(1, 2, int32(c.total-c.total/2))
		h := build(t, graph.BuildCSR(e))
		sweep := h.NewTreeSweep(1)
		if err := sweep.Run([]int32{0}); err != nil {
			t.Fatal(err)
		}
		row := make([]int32, h.N)
		fits, err := sweep.Rows32(0, 1, row)
		if err != nil || fits != c.fits {
			t.Fatalf("a distance of %d: fits %t (%v), want %t", c.total, fits, err, c.fits)
		}
		if fits && row[2] != int32(c.total) {
			t.Fatalf("a distance of %d copied as %d", c.total, row[2])
		}
	}
}
