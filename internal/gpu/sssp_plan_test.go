package gpu

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/generate"
	"github.com/pathflow/pathflow/internal/gpu/gputest"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
)

func TestPlanSSSPPicksVariants(t *testing.T) {
	pos := graph.BuildCSR(lineGraph(5, 3))
	negEdges := lineGraph(5, 3)
	negEdges.Weight[1] = -2
	neg := graph.BuildCSR(negEdges)
	for _, c := range []struct {
		g    *graph.CSR
		alg  backend.Algorithm
		want string
	}{
		{pos, backend.Algorithm{Name: SSSPFamily}, VariantNearFar},
		{pos, backend.Algorithm{Name: "auto", Variant: "auto"}, VariantNearFar},
		{neg, backend.Algorithm{Name: SSSPFamily}, VariantBFFlags},
		{pos, backend.Algorithm{Name: BellmanFordFamily}, VariantBFFlags},
		{pos, backend.Algorithm{Name: DijkstraFamily}, VariantDijkstra},
		{pos, backend.Algorithm{Name: DijkstraFamily, Variant: VariantNearFar}, VariantNearFar},
		{neg, backend.Algorithm{Name: BellmanFordFamily, Variant: VariantBFNaive}, VariantBFNaive},
		{pos, backend.Algorithm{Name: SSSPFamily, Variant: VariantBFStride}, VariantBFStride},
	} {
		p, err := planSSSP(c.g, c.alg, SSSPOptions{})
		if err != nil || p.variant != c.want {
			t.Errorf("%+v: variant %q, %v; want %q", c.alg, p.variant, err, c.want)
		}
	}
}

func TestPlanSSSPRefuses(t *testing.T) {
	negEdges := lineGraph(5, 3)
	negEdges.Weight[0] = -1
	neg := graph.BuildCSR(negEdges)
	pos := graph.BuildCSR(lineGraph(5, 3))
	huge := graph.BuildCSR(lineGraph(3, 1<<29))
	halfHuge := lineGraph(3, 1<<28)
	halfHuge.Weight[0] = -(1 << 28)
	for _, c := range []struct {
		name string
		g    *graph.CSR
		alg  backend.Algorithm
		opts SSSPOptions
		is   error
	}{
		{"near-far on a negative arc", neg, backend.Algorithm{Name: SSSPFamily, Variant: VariantNearFar}, SSSPOptions{}, ErrNotSupported},
		{"dijkstra on a negative arc", neg, backend.Algorithm{Name: DijkstraFamily}, SSSPOptions{}, ErrNotSupported},
		{"unknown family", pos, backend.Algorithm{Name: "floyd-warshall"}, SSSPOptions{}, ErrNotSupported},
		{"unknown variant", pos, backend.Algorithm{Name: SSSPFamily, Variant: "fast"}, SSSPOptions{}, ErrNotSupported},
		{"int32 overflow", huge, backend.Algorithm{Name: BellmanFordFamily}, SSSPOptions{}, ErrNeedsInt64},
		{"weight at infinity", graph.BuildCSR(lineGraph(3, graph.Inf32)), backend.Algorithm{Name: SSSPFamily}, SSSPOptions{}, ErrNeedsInt64},
		{"negative weights near the bound", graph.BuildCSR(halfHuge), backend.Algorithm{Name: BellmanFordFamily}, SSSPOptions{}, ErrNeedsInt64},
		{"block size", pos, backend.Algorithm{Name: SSSPFamily}, SSSPOptions{BlockSize: 100}, nil},
		{"negative delta", pos, backend.Algorithm{Name: SSSPFamily}, SSSPOptions{Delta: -1}, nil},
		{"negative timeout", pos, backend.Algorithm{Name: SSSPFamily}, SSSPOptions{Timeout: -time.Second}, nil},
		{"tile size", pos, backend.Algorithm{Name: SSSPFamily, BlockSize: 32}, SSSPOptions{}, nil},
	} {
		_, err := planSSSP(c.g, c.alg, c.opts)
		if err == nil || (c.is != nil && !errors.Is(err, c.is)) {
			t.Errorf("%s: %v, want an error wrapping %v", c.name, err, c.is)
		}
	}
}

func TestCheckCSRRejectsBrokenGraphs(t *testing.T) {
	good := func() *graph.CSR { return graph.BuildCSR(lineGraph(4, 2)) }
	if err := checkCSR(good()); err != nil {
		t.Fatal(err)
	}
	for name, broken := range map[string]func(g *graph.CSR){
		"short offsets":     func(g *graph.CSR) { g.Offsets = g.Offsets[:2] },
		"target too large":  func(g *graph.CSR) { g.Targets[0] = 4 },
		"negative target":   func(g *graph.CSR) { g.Targets[1] = -1 },
		"decreasing offset": func(g *graph.CSR) { g.Offsets[1], g.Offsets[2] = g.Offsets[2], g.Offsets[1] },
		"missing weights":   func(g *graph.CSR) { g.Weights = g.Weights[:1] },
		"offsets past end":  func(g *graph.CSR) { g.Offsets[4]++ },
	} {
		g := good()
		broken(g)
		if err := checkCSR(g); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if err := checkSources(4, []int32{0, 3, 4}); err == nil {
		t.Error("source 4 of 4 vertices accepted")
	}
}

func TestPlanSSSPPicksDeltaByDegree(t *testing.T) {
	grid, err := generate.Grid(20, 10, 10, 1)
	if err != nil {
		t.Fatal(err)
	}
	dense, err := generate.RandomDegree(400, 7, 10, 10, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		e    *graph.EdgeList
		opts SSSPOptions
		want int64
	}{
		{grid, SSSPOptions{}, 10 * SparseDeltaFactor},
		{dense, SSSPOptions{}, 10 * DenseDeltaFactor},
		{dense, SSSPOptions{DeltaFactor: 2.5}, 25},
		{grid, SSSPOptions{Delta: 7, DeltaFactor: 3}, 7},
	} {
		p, err := planSSSP(graph.BuildCSR(c.e), backend.Algorithm{Name: SSSPFamily}, c.opts)
		if err != nil || p.delta != c.want {
			t.Errorf("%+v: delta %d, %v; want %d", c.opts, p.delta, err, c.want)
		}
	}
}

func TestDefaultDeltaScalesTheMeanWeight(t *testing.T) {
	if d := defaultDelta([]int32{10, 20, 30}, 2); d != 40 {
		t.Errorf("delta %d, want 40", d)
	}
	if d := defaultDelta([]int32{0, 0}, 8); d != 1 {
		t.Errorf("delta of zero weights %d, want 1", d)
	}
	if d := defaultDelta(nil, 8); d != 1 {
		t.Errorf("delta without arcs %d, want 1", d)
	}
}

func TestReverseCSRListsEveryArcOnce(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 1))
	e := gputest.RandomGraph(r, 300, 2000, -5, 50, 0)
	g := graph.BuildCSR(e)
	rev := reverseCSR(g)
	want := graph.BuildReverseCSR(e)
	if !slices.Equal(rev.Offsets, want.Offsets) {
		t.Fatal("offsets differ from graph.BuildReverseCSR")
	}
	// Same arcs per row; within a row, sources ascend.
	for v := int32(0); v < g.N; v++ {
		got, exp := rowArcs(rev, v), rowArcs(want, v)
		slices.SortStableFunc(exp, func(a, b [2]int32) int { return int(a[0] - b[0]) })
		if !slices.Equal(got, exp) {
			t.Fatalf("row %d: %v, want %v", v, got, exp)
		}
	}
}

func rowArcs(g *graph.CSR, v int32) [][2]int32 {
	var arcs [][2]int32
	for i := g.Offsets[v]; i < g.Offsets[v+1]; i++ {
		arcs = append(arcs, [2]int32{g.Targets[i], g.Weights[i]})
	}
	return arcs
}

func TestTightTreeParentsMendsZeroWeightLoops(t *testing.T) {
	// 0 -> 1 (w 1), 1 <-> 2 (w 0 both ways), 2 -> 3 (w 2): vertices 1 and 2
	// are each other's smallest tight in-neighbour candidates.
	e := graph.NewEdgeList(5, 5)
	e.Add(0, 1, 1)
	e.Add(1, 2, 0)
	e.Add(2, 1, 0)
	e.Add(2, 3, 2)
	e.Add(4, 0, 1)
	g := graph.BuildCSR(e)
	s := newParentScratch(5)
	dist := []int32{0, 1, 1, 3, graph.Inf32}
	looping := []int32{-1, 2, 1, 2, -1}
	if !s.parentsLoop(0, dist, looping) {
		t.Fatal("loop 1 <-> 2 not found")
	}
	parent := slices.Clone(looping)
	s.tightTreeParents(g, 0, dist, parent)
	if s.parentsLoop(0, dist, parent) {
		t.Fatalf("mended parents %v still loop", parent)
	}
	if want := []int32{-1, 0, 1, 2, -1}; !slices.Equal(parent, want) {
		t.Fatalf("parents %v, want %v", parent, want)
	}
	if s.parentsLoop(0, dist, []int32{-1, 0, 1, 2, -1}) {
		t.Fatal("a tree reported as looping")
	}
}

func TestRepairParentsMendsOnlyLoopingRows(t *testing.T) {
	// Rows from 0 (looping parents) and from 4 (a good tree) of the graph
	// above, in one block, mended on two goroutines.
	e := graph.NewEdgeList(5, 5)
	e.Add(0, 1, 1)
	e.Add(1, 2, 0)
	e.Add(2, 1, 0)
	e.Add(2, 3, 2)
	e.Add(4, 0, 1)
	g := graph.BuildCSR(e)
	b := &backend.Rows{First: 3, Sources: []int32{0, 4}, Width: 5,
		Dist32: []int32{0, 1, 1, 3, graph.Inf32, 1, 2, 2, 4, 0},
		Parent: []int32{-1, 2, 1, 2, -1, 4, 0, 1, 2, -1}}
	good := slices.Clone(b.Parent[5:])
	repairParents(g, b, []*parentScratch{newParentScratch(5), newParentScratch(5)})
	for i := range b.Len() {
		if err := paths.CheckTree(g, b.Tree(i)); err != nil {
			t.Fatalf("row %d: %v", i, err)
		}
	}
	if !slices.Equal(b.Parent[:5], []int32{-1, 0, 1, 2, -1}) || !slices.Equal(b.Parent[5:], good) {
		t.Fatalf("parents %v", b.Parent)
	}
	b.Parent = nil
	repairParents(g, b, []*parentScratch{newParentScratch(5)}) // nothing to do
}

func TestNegativeCycleFrom(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 3))
	e := gputest.RandomGraph(r, 300, 1200, 0, 30, 20)
	g := graph.BuildCSR(e)
	if v := negativeCycleFrom(g, 0); v != -1 {
		t.Fatalf("graph without negative cycles: vertex %d", v)
	}
	cycle := []int32{101, 202, 250, 57}
	e.Add(0, cycle[0], 1)
	for i, u := range cycle {
		e.Add(u, cycle[(i+1)%len(cycle)], -100)
	}
	g = graph.BuildCSR(e)
	v := negativeCycleFrom(g, 0)
	if v < 0 {
		t.Fatal("planted negative cycle not found")
	}
	// The vertex returned must reach itself at negative cost.
	if _, ok := gputest.BellmanFord(g, v); ok {
		t.Fatalf("vertex %d: Bellman-Ford from it converges", v)
	}
	self := graph.NewEdgeList(3, 2)
	self.Add(0, 1, 1)
	self.Add(1, 1, -1)
	if v := negativeCycleFrom(graph.BuildCSR(self), 0); v != 1 {
		t.Fatalf("negative self-loop at 1: vertex %d", v)
	}
	if v := negativeCycleFrom(graph.BuildCSR(self), 2); v != -1 {
		t.Fatalf("from a vertex that reaches no cycle: vertex %d", v)
	}
}

func TestNearFarShape(t *testing.T) {
	for _, c := range []struct {
		n                                int64
		sources, resident, blocks, batch int
		maxBytes, extra                  int64
		wantBlocks, wantRows             int
	}{
		{n: 262144, sources: 1, resident: 396, wantBlocks: 64, wantRows: 1},
		{n: 24_010_000, sources: 1, resident: 396, wantBlocks: 264, wantRows: 1},
		{n: 262144, sources: 1024, resident: 396, maxBytes: 1 << 40, wantBlocks: 1, wantRows: 396},
		{n: 262144, sources: 1024, resident: 660, maxBytes: 2 << 30, wantBlocks: 2, wantRows: 292},
		// Result rows (two slots of distances and parents) count too.
		{n: 262144, sources: 1024, resident: 660, maxBytes: 2 << 30, extra: 4, wantBlocks: 3, wantRows: 186},
		{n: 262144, sources: 20, resident: 660, maxBytes: 1 << 40, wantBlocks: 33, wantRows: 20},
		{n: 1000, sources: 50, resident: 660, blocks: 8, batch: 500, maxBytes: 1 << 40, wantBlocks: 8, wantRows: 50},
		{n: 1000, sources: 500, resident: 660, blocks: 8, batch: 500, maxBytes: 1 << 40, wantBlocks: 8, wantRows: 82},
		{n: 1000, sources: 5, resident: 660, blocks: 5000, maxBytes: 1 << 40, wantBlocks: 660, wantRows: 1},
		{n: 1000, sources: 7, resident: 660, batch: 2, maxBytes: 1 << 40, wantBlocks: 1, wantRows: 2},
	} {
		maxBytes := c.maxBytes
		if maxBytes == 0 {
			maxBytes = DefaultMaxBatchBytes
		}
		blocks, rows := nearFarShape(c.n, c.sources, 256, c.resident, 264, c.blocks, c.batch, maxBytes, c.extra)
		if blocks != c.wantBlocks || rows != c.wantRows {
			t.Errorf("%+v: %d blocks x %d rows, want %d x %d", c, blocks, rows, c.wantBlocks, c.wantRows)
		}
		if blocks*rows > c.resident {
			t.Errorf("%+v: %d blocks cannot all be resident", c, blocks*rows)
		}
	}
}

func TestPlanSSSPChecksNearFarBeyondTheBound(t *testing.T) {
	// A 4900 x 4900 grid with weights up to 1000 has a worst-case bound far
	// above int32 but real distances far below: near-far runs it checked,
	// the variants without the check refuse it.
	e, err := generate.Grid(64, 1, 1<<20, 1)
	if err != nil {
		t.Fatal(err)
	}
	g := graph.BuildCSR(e)
	p, err := planSSSP(g, backend.Algorithm{Name: SSSPFamily}, SSSPOptions{})
	if err != nil || !p.checked {
		t.Fatalf("near-far: checked %v, %v", p.checked, err)
	}
	for _, v := range []string{VariantBFFlags, VariantDijkstra} {
		if _, err := planSSSP(g, backend.Algorithm{Name: SSSPFamily, Variant: v}, SSSPOptions{}); !errors.Is(err, ErrNeedsInt64) {
			t.Errorf("%s: %v, want ErrNeedsInt64", v, err)
		}
	}
	small, err := planSSSP(graph.BuildCSR(lineGraph(5, 3)), backend.Algorithm{Name: SSSPFamily}, SSSPOptions{})
	if err != nil || small.checked {
		t.Fatalf("small graph: checked %v, %v", small.checked, err)
	}
}
