package sssp

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/generate"
	"github.com/pathflow/pathflow/internal/gpu/device"
	"github.com/pathflow/pathflow/internal/gpu/spread"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/graph/graphtest"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/results"
)

func TestPlanSSSPPicksVariants(t *testing.T) {
	pos := graph.BuildCSR(graphtest.LineGraph(5, 3))
	negEdges := graphtest.LineGraph(5, 3)
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
		p, err := planSSSP(c.g, c.alg, Options{})
		if err != nil || p.variant != c.want {
			t.Errorf("%+v: variant %q, %v; want %q", c.alg, p.variant, err, c.want)
		}
	}
}

func TestPlanSSSPRefuses(t *testing.T) {
	negEdges := graphtest.LineGraph(5, 3)
	negEdges.Weight[0] = -1
	neg := graph.BuildCSR(negEdges)
	pos := graph.BuildCSR(graphtest.LineGraph(5, 3))
	huge := graph.BuildCSR(graphtest.LineGraph(3, 1<<29))
	halfHuge := graphtest.LineGraph(3, 1<<28)
	halfHuge.Weight[0] = -(1 << 28)
	for _, c := range []struct {
		name string
		g    *graph.CSR
		alg  backend.Algorithm
		opts Options
		is   error
	}{
		{"near-far on a negative arc", neg, backend.Algorithm{Name: SSSPFamily, Variant: VariantNearFar}, Options{}, device.ErrNotSupported},
		{"dijkstra on a negative arc", neg, backend.Algorithm{Name: DijkstraFamily}, Options{}, device.ErrNotSupported},
		{"unknown family", pos, backend.Algorithm{Name: "floyd-warshall"}, Options{}, device.ErrNotSupported},
		{"unknown variant", pos, backend.Algorithm{Name: SSSPFamily, Variant: "fast"}, Options{}, device.ErrNotSupported},
		{"int32 overflow", huge, backend.Algorithm{Name: BellmanFordFamily}, Options{}, device.ErrNeedsInt64},
		{"weight at infinity", graph.BuildCSR(graphtest.LineGraph(3, graph.Inf32)), backend.Algorithm{Name: SSSPFamily}, Options{}, device.ErrNeedsInt64},
		{"negative weights near the bound", graph.BuildCSR(halfHuge), backend.Algorithm{Name: BellmanFordFamily}, Options{}, device.ErrNeedsInt64},
		{"block size", pos, backend.Algorithm{Name: SSSPFamily}, Options{ThreadsPerBlock: 100}, nil},
		{"negative delta", pos, backend.Algorithm{Name: SSSPFamily}, Options{Delta: -1}, nil},
		{"negative timeout", pos, backend.Algorithm{Name: SSSPFamily}, Options{Timeout: -time.Second}, nil},
		{"tile size", pos, backend.Algorithm{Name: SSSPFamily, TileEdge: 32}, Options{}, nil},
	} {
		_, err := planSSSP(c.g, c.alg, c.opts)
		if err == nil || (c.is != nil && !errors.Is(err, c.is)) {
			t.Errorf("%s: %v, want an error wrapping %v", c.name, err, c.is)
		}
	}
}

// A graph large enough to be checked in chunks on every core: the first
// bad arc and the first decreasing offset are named, wherever they lie.
func TestCheckCSRNamesTheFirstFaultOfALargeGraph(t *testing.T) {
	g := graph.BuildCSR(graphtest.LineGraph(3<<20, 2))
	if err := checkCSR(g); err != nil {
		t.Fatal(err)
	}
	m := len(g.Targets)
	for _, at := range []int{0, m / 2, m - 1} {
		// A second bad arc at the end: the first one is named.
		atSaved, lastSaved := g.Targets[at], g.Targets[m-1]
		g.Targets[m-1], g.Targets[at] = -7, -1
		err := checkCSR(g)
		g.Targets[m-1], g.Targets[at] = lastSaved, atSaved
		if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("arc %d points", at)) {
			t.Errorf("bad arc %d: %v", at, err)
		}
	}
	u := int(g.N) - 5
	g.Offsets[u+1] = g.Offsets[u] - 1
	if err := checkCSR(g); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("decrease at vertex %d", u)) {
		t.Errorf("decreasing offset at %d: %v", u, err)
	}
}

func TestCheckCSRRejectsBrokenGraphs(t *testing.T) {
	good := func() *graph.CSR { return graph.BuildCSR(graphtest.LineGraph(4, 2)) }
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
	if err := spread.CheckSources(4, []int32{0, 3, 4}); err == nil {
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
		opts Options
		want int64
	}{
		{grid, Options{}, 10 * SparseDeltaFactor},
		{dense, Options{}, 10 * DenseDeltaFactor},
		{dense, Options{DeltaFactor: 2.5}, 25},
		{grid, Options{Delta: 7, DeltaFactor: 3}, 7},
	} {
		p, err := planSSSP(graph.BuildCSR(c.e), backend.Algorithm{Name: SSSPFamily}, c.opts)
		if err != nil || p.delta != c.want {
			t.Errorf("%+v: delta %d, %v; want %d", c.opts, p.delta, err, c.want)
		}
	}
}

func TestDefaultDeltaScalesTheMeanWeight(t *testing.T) {
	if d := defaultDelta(20, 2); d != 40 {
		t.Errorf("delta %d, want 40", d)
	}
	if d := defaultDelta(0, 8); d != 1 {
		t.Errorf("delta of zero weights %d, want 1", d)
	}
	if d := defaultDelta(0, 8); d != 1 {
		t.Errorf("delta without arcs %d, want 1", d)
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
	b := &results.Rows{First: 3, Sources: []int32{0, 4}, Width: 5,
		Dist32: []int32{0, 1, 1, 3, graph.Inf32, 1, 2, 2, 4, 0},
		Parent: []int32{-1, 2, 1, 2, -1, 4, 0, 1, 2, -1}}
	good := slices.Clone(b.Parent[5:])
	repairParents(g, b, []*paths.TreeRepair{paths.NewTreeRepair(5), paths.NewTreeRepair(5)})
	for i := range b.Len() {
		if err := paths.CheckTree(g, b.Tree(i).Copy()); err != nil {
			t.Fatalf("row %d: %v", i, err)
		}
	}
	if !slices.Equal(b.Parent[:5], []int32{-1, 0, 1, 2, -1}) || !slices.Equal(b.Parent[5:], good) {
		t.Fatalf("parents %v", b.Parent)
	}
	b.Parent = nil
	repairParents(g, b, []*paths.TreeRepair{paths.NewTreeRepair(5)}) // nothing to do
}

func TestNegativeCycleFromNamesAVertexOnTheCycle(t *testing.T) {
	e := graph.NewEdgeList(5, 5)
	e.Add(0, 1, 1)
	e.Add(1, 2, -3)
	e.Add(2, 3, 1)
	e.Add(3, 1, 1)
	e.Add(0, 4, 1)
	err := negativeCycleFrom(context.Background(), graph.BuildCSR(e), 0)
	var cycle *backend.NegativeCycleError
	if !errors.As(err, &cycle) || cycle.Vertex < 1 || cycle.Vertex > 3 {
		t.Fatalf("cycle 1 -> 2 -> 3 -> 1 of weight -1: %v", err)
	}
	// From 4 nothing is reachable: the device would not have reported a
	// cycle, and the host says so.
	if err := negativeCycleFrom(context.Background(), graph.BuildCSR(e), 4); err == nil || errors.As(err, &cycle) {
		t.Fatalf("from 4, which reaches no cycle: %v", err)
	}
}

// TestNearFarShapeProperties checks nearFarShape's promises on random
// devices and requests rather than one GPU's numbers: every block of a
// batch can be resident, the batch's state fits the memory it was given
// (or is one source), no batch exceeds the sources or the grid, and
// explicit choices are kept where the device allows them.
func TestNearFarShapeProperties(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 5))
	for range 2000 {
		n := 1 + r.Int64N(1<<25)
		sources := 1 + r.IntN(5000)
		resident := 1 + r.IntN(2000)
		maxPerSource := 1 + r.IntN(300)
		blocksPerSource, batch := 0, 0
		if r.IntN(3) == 0 {
			blocksPerSource = 1 + r.IntN(500)
		}
		if r.IntN(3) == 0 {
			batch = 1 + r.IntN(1000)
		}
		maxBytes := 1 + r.Int64N(8<<30)
		extra := r.Int64N(5)
		blocks, rows := nearFarShape(n, sources, 256, resident, maxPerSource, blocksPerSource, batch, maxBytes, extra)
		rowBytes := (nearFarRowInts+extra)*4*n + nearFarStateInts*4
		what := fmt.Sprintf("n %d, %d sources, %d resident, %d per source max, blocks %d, batch %d, %d bytes, extra %d: %d blocks x %d rows",
			n, sources, resident, maxPerSource, blocksPerSource, batch, maxBytes, extra, blocks, rows)
		switch {
		case blocks < 1 || rows < 1:
			t.Fatalf("%s: empty shape", what)
		case blocks*rows > resident && rows > 1:
			t.Fatalf("%s: the blocks cannot all be resident", what)
		case blocks > resident:
			t.Fatalf("%s: more blocks per source than resident", what)
		case rows > sources || rows > 65535:
			t.Fatalf("%s: more rows than sources or grid rows", what)
		case rows > 1 && int64(rows)*rowBytes > maxBytes:
			t.Fatalf("%s: %d bytes of state for %d", what, int64(rows)*rowBytes, maxBytes)
		case blocksPerSource == 0 && blocks > max(maxPerSource, 1):
			t.Fatalf("%s: more blocks per source than allowed", what)
		case blocksPerSource > 0 && blocks != min(blocksPerSource, resident):
			t.Fatalf("%s: explicit blocks per source not kept", what)
		case batch > 0 && rows > batch:
			t.Fatalf("%s: more rows than the explicit batch", what)
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
	p, err := planSSSP(g, backend.Algorithm{Name: SSSPFamily}, Options{})
	if err != nil || !p.checked {
		t.Fatalf("near-far: checked %v, %v", p.checked, err)
	}
	for _, v := range []string{VariantBFFlags, VariantDijkstra} {
		if _, err := planSSSP(g, backend.Algorithm{Name: SSSPFamily, Variant: v}, Options{}); !errors.Is(err, device.ErrNeedsInt64) {
			t.Errorf("%s: %v, want device.ErrNeedsInt64", v, err)
		}
	}
	small, err := planSSSP(graph.BuildCSR(graphtest.LineGraph(5, 3)), backend.Algorithm{Name: SSSPFamily}, Options{})
	if err != nil || small.checked {
		t.Fatalf("small graph: checked %v, %v", small.checked, err)
	}
}
