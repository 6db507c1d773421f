//go:build cuda

package allpairs_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pathflow/pathflow/datasets"
	"github.com/pathflow/pathflow/datasets/benchgraphs"
	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/gpu"
	"github.com/pathflow/pathflow/internal/gpu/allpairs"
	"github.com/pathflow/pathflow/internal/gpu/backendtest"
	"github.com/pathflow/pathflow/internal/gpu/device"
	"github.com/pathflow/pathflow/internal/gpu/gputest"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/graph/graphtest"
	"github.com/pathflow/pathflow/internal/results"
)

// config is one way of running floyd-warshall.
type config struct {
	alg         backend.Algorithm
	strategy    allpairs.ParentStrategy
	noLookahead bool
}

func (c config) String() string {
	s := c.alg.Variant
	if c.alg.TileEdge != 0 {
		s += fmt.Sprintf("/b%d", c.alg.TileEdge)
	}
	if c.strategy != allpairs.ParentsAuto {
		s += "/" + c.strategy.String()
	}
	if c.noLookahead {
		s += "/one-stream"
	}
	return s
}

func (c config) backend() *gpu.Backend {
	if c.noLookahead {
		return backendtest.WithStrategy(c.strategy, false)
	}
	return backendtest.WithStrategy(c.strategy, true)
}

// allConfigs covers every variant, the blocked variant's block sizes
// (including one that divides nothing) and the fast variant's parent
// strategies and schedules.
var allConfigs = []config{
	{alg: backend.Algorithm{Variant: allpairs.VariantNaive}},
	{alg: backend.Algorithm{Variant: allpairs.VariantRow}},
	{alg: backend.Algorithm{Variant: allpairs.VariantBlocked}},
	{alg: backend.Algorithm{Variant: allpairs.VariantBlocked, TileEdge: 16}},
	{alg: backend.Algorithm{Variant: allpairs.VariantBlocked, TileEdge: 5}},
	{alg: backend.Algorithm{Variant: allpairs.VariantFast}},
	{alg: backend.Algorithm{Variant: allpairs.VariantFast}, strategy: allpairs.ParentsTrack},
	{alg: backend.Algorithm{Variant: allpairs.VariantFast}, strategy: allpairs.ParentsRecover},
	{alg: backend.Algorithm{Variant: allpairs.VariantFast}, noLookahead: true},
	{alg: backend.Algorithm{Variant: allpairs.VariantFast}, strategy: allpairs.ParentsTrack, noLookahead: true},
}

// streamFW computes all pairs with c on poisoned device buffers and
// streams rows sources (all when nil) into a collector whose Check is
// check (none when nil) and which keeps the rows when keep.
func streamFW(t *testing.T, b *gpu.Backend, alg backend.Algorithm, e *graph.EdgeList, sources []int32, withParents bool,
	check func(*results.Rows) error, keep bool) (*gputest.Collector, device.StreamStats, error) {
	t.Helper()
	if sources == nil {
		sources = backendtest.Vertices(e.N)
	}
	req := &backend.Request{Shape: results.Shape{Sources: sources, Columns: results.ColumnsOf().With(results.Parent, withParents)}, Edges: e}
	col := gputest.NewCollector(req, keep)
	col.Check = check
	r, err := b.PrepareAllPairs(e, alg, withParents)
	if err != nil {
		return col, device.StreamStats{}, err
	}
	defer backendtest.CloseChecked(t, "the run", r)
	if err := r.FillMatrices(backendtest.Poison); err != nil {
		return col, device.StreamStats{}, err
	}
	backendtest.PoisonPinned(b)
	if _, err := r.Compute(context.Background()); err != nil {
		return col, device.StreamStats{}, err
	}
	stats, err := r.Stream(context.Background(), sources, col.Sink)
	if err == nil {
		_, err = col.Done()
	}
	return col, stats, err
}

// against returns a block check against reference rows.
func against(e *graph.EdgeList, want func(s int32) []int64, withParents bool) func(*results.Rows) error {
	g := graph.BuildCSR(e)
	return func(b *results.Rows) error { return gputest.CheckBlock(g, b, want, withParents) }
}

type randomCase struct {
	name               string
	n                  int32
	arcs               int
	lo, hi, shift      int32
	disconnectedExtras int32
}

func randomCases() []randomCase {
	return []randomCase{
		{name: "single vertex", n: 1, arcs: 0, lo: 1, hi: 9},
		{name: "single vertex self-loop", n: 1, arcs: 2, lo: 0, hi: 9},
		{name: "two vertices", n: 2, arcs: 3, lo: 1, hi: 9},
		{name: "sparse positive", n: 77, arcs: 150, lo: 1, hi: 100},
		{name: "dense positive", n: 130, arcs: 130 * 40, lo: 1, hi: 1000},
		{name: "large weights", n: 400, arcs: 2400, lo: 1, hi: 100000},
		{name: "dense four tiles", n: 400, arcs: 400 * 20, lo: 1, hi: 50},
		{name: "zero weights", n: 64, arcs: 300, lo: 0, hi: 2},
		{name: "negative weights", n: 150, arcs: 900, lo: 0, hi: 50, shift: 40},
		{name: "negative sparse", n: 200, arcs: 260, lo: 0, hi: 20, shift: 100},
		{name: "multi-tile with isolated tail", n: 300, arcs: 2000, lo: 1, hi: 60, disconnectedExtras: 40},
		{name: "four tiles zero weights", n: 420, arcs: 2500, lo: 0, hi: 3},
		{name: "five tiles negative weights", n: 600, arcs: 3000, lo: 0, hi: 30, shift: 60},
	}
}

func (rc randomCase) graph(r *rand.Rand) *graph.EdgeList {
	e := graphtest.RandomGraph(r, rc.n-rc.disconnectedExtras, rc.arcs, rc.lo, rc.hi, rc.shift)
	e.N = rc.n // the last vertices have no arcs at all
	return e
}

func TestAllPairsMatchesReferenceOnRandomGraphs(t *testing.T) {
	for _, seed := range []uint64{1, 2, backendtest.FreshSeed(t)} {
		r := rand.New(rand.NewPCG(seed, 99))
		for _, rc := range randomCases() {
			e := rc.graph(r)
			want, neg := graphtest.FloydWarshall(e)
			if neg != -1 {
				t.Fatalf("seed %d %s: test graph has a negative cycle", seed, rc.name)
			}
			for _, c := range allConfigs {
				for _, withParents := range []bool{false, true} {
					_, _, err := streamFW(t, c.backend(), c.alg, e, nil, withParents,
						against(e, graphtest.MatrixRows(e.N, want), withParents), false)
					if err != nil {
						t.Errorf("seed %d %s (n %d, %d arcs) %v parents %v: %v", seed, rc.name, e.N, e.M(), c, withParents, err)
					}
				}
			}
		}
	}
}

// TestAllPairsStreamsRequestedRows asks for rows in scrambled orders and
// subsets, through small pinned blocks (many per run, rows of one block
// from scattered matrix rows) and matrices padded beyond n (fast: pitch
// 384 for 300 vertices), so that every copy path packs and places rows.
func TestAllPairsStreamsRequestedRows(t *testing.T) {
	seed := backendtest.FreshSeed(t)
	r := rand.New(rand.NewPCG(seed, 41))
	e := graphtest.RandomGraph(r, 300, 2400, 0, 40, 0)
	want, _ := graphtest.FloydWarshall(e)
	rows := graphtest.MatrixRows(e.N, want)
	perm := r.Perm(300)
	scrambled := make([]int32, len(perm))
	for i, v := range perm {
		scrambled[i] = int32(v)
	}
	reversed := backendtest.Vertices(300)
	slices.Reverse(reversed)
	runs := []int32{250, 251, 252, 0, 1, 2, 3, 4, 299, 100, 102, 101, 103, 104, 105, 106, 107, 7}
	for _, staging := range []struct{ blocks, rows int }{{2, 1}, {3, 7}, {4, 64}, {4, 1000}} {
		b, err := gpu.New(gpu.WithStaging(staging.blocks, int64(staging.rows)*300*4))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []config{
			{alg: backend.Algorithm{Variant: allpairs.VariantFast}},
			{alg: backend.Algorithm{Variant: allpairs.VariantBlocked, TileEdge: 7}},
			{alg: backend.Algorithm{Variant: allpairs.VariantNaive}},
		} {
			for name, sources := range map[string][]int32{
				"all": nil, "scrambled": scrambled, "reversed": reversed, "half scrambled": scrambled[:150],
				"runs": runs, "one row": {123}, "last row": {299},
			} {
				for _, withParents := range []bool{false, true} {
					col, stats, err := streamFW(t, b, c.alg, e, sources, withParents, against(e, rows, withParents), false)
					if err != nil {
						t.Fatalf("staging %+v %v %s parents %v: %v", staging, c, name, withParents, err)
					}
					wantRows := len(sources)
					if sources == nil {
						wantRows = int(e.N)
					}
					blocks, maxRows := col.Blocks()
					if maxRows > staging.rows || blocks != stats.Blocks || stats.Rows != wantRows {
						t.Fatalf("staging %+v %v %s: %d blocks of up to %d rows, stats %+v", staging, c, name, blocks, maxRows, stats)
					}
				}
			}
		}
		if err := b.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

func TestAllPairsIsRepeatable(t *testing.T) {
	r := rand.New(rand.NewPCG(backendtest.FreshSeed(t), 5))
	e := graphtest.RandomGraph(r, 517, 5000, 1, 30, 0)
	for _, c := range allConfigs {
		first, _, err := streamFW(t, c.backend(), c.alg, e, nil, true, nil, true)
		if err != nil {
			t.Fatalf("%v: %v", c, err)
		}
		second, _, err := streamFW(t, c.backend(), c.alg, e, nil, true, nil, true)
		if err != nil {
			t.Fatalf("%v: %v", c, err)
		}
		a, err := first.Done()
		if err != nil {
			t.Fatalf("%v: %v", c, err)
		}
		b, err := second.Done()
		if err != nil {
			t.Fatalf("%v: %v", c, err)
		}
		for i := range a {
			if !slices.Equal(a[i].Dist, b[i].Dist) || !slices.Equal(a[i].Parent, b[i].Parent) {
				t.Fatalf("%v: two runs on the same graph differ in row %d", c, i)
			}
		}
	}
}

func TestAllPairsVariantsAgree(t *testing.T) {
	// Larger than the CPU Floyd-Warshall likes: check every row against
	// Dijkstra, and parents as trees.
	r := rand.New(rand.NewPCG(backendtest.FreshSeed(t), 6))
	e := graphtest.RandomGraph(r, 1000, 8000, 1, 100, 0)
	g := graph.BuildCSR(e)
	ref := func(s int32) []int64 { return graphtest.Dijkstra(g, s) }
	for _, c := range allConfigs {
		if _, _, err := streamFW(t, c.backend(), c.alg, e, nil, true, against(e, ref, true), false); err != nil {
			t.Errorf("%v: %v", c, err)
		}
	}
}

// negativeCycleGraph plants the cycle a -> b -> c -> a of weight -3 in a
// random graph whose other weights are at least 10, so that it is the only
// negative simple cycle.
func negativeCycleGraph(r *rand.Rand, n int32) (e *graph.EdgeList, cycle []int32) {
	e = graphtest.RandomGraph(r, n, int(n)*4, 10, 100, 0)
	perm := r.Perm(int(n))
	a, b, c := int32(perm[0]), int32(perm[1]), int32(perm[2])
	e.Add(a, b, -5)
	e.Add(b, c, 1)
	e.Add(c, a, 1)
	return e, []int32{a, b, c}
}

func TestAllPairsReportsNegativeCycle(t *testing.T) {
	r := rand.New(rand.NewPCG(backendtest.FreshSeed(t), 7))
	for _, n := range []int32{3, 40, 300} {
		e, cycle := negativeCycleGraph(r, n)
		for _, c := range allConfigs {
			for _, withParents := range []bool{false, true} {
				col, _, err := streamFW(t, c.backend(), c.alg, e, nil, withParents, nil, false)
				var neg *backend.NegativeCycleError
				if !errors.As(err, &neg) || !slices.Contains(cycle, neg.Vertex) {
					t.Errorf("n %d cycle %v %v parents %v: error %v, want a backend.NegativeCycleError on the cycle", n, cycle, c, withParents, err)
				}
				if blocks, _ := col.Blocks(); blocks != 0 {
					t.Errorf("n %d %v: %d blocks handed over before the negative cycle was reported", n, c, blocks)
				}
			}
		}
	}
	// A negative self-loop is a cycle of one vertex.
	e := graphtest.RandomGraph(r, 50, 100, 1, 9, 0)
	e.Add(17, 17, -1)
	for _, c := range allConfigs[:6] {
		_, _, err := streamFW(t, c.backend(), c.alg, e, nil, false, nil, false)
		var neg *backend.NegativeCycleError
		if !errors.As(err, &neg) || neg.Vertex != 17 {
			t.Errorf("self-loop %v: error %v, want a backend.NegativeCycleError at 17", c, err)
		}
	}
}

func TestAllPairsRefusesWhatInt32CannotHold(t *testing.T) {
	e := graph.NewEdgeList(3000, 2)
	e.Add(0, 1, 1<<20)
	e.Add(1, 2, 1)
	if _, err := backendtest.Request(t, e, backend.Algorithm{Name: allpairs.AllPairsFamily}, backendtest.Vertices(3000), false); !errors.Is(err, backend.ErrNeedsInt64) {
		t.Fatalf("Choose: %v, want device.ErrNeedsInt64", err)
	}
	req := backend.Request{Shape: results.Shape{Sources: []int32{0}}, Edges: e, Choice: backend.Choice{Algorithm: backend.Algorithm{Name: allpairs.AllPairsFamily}, AllPairs: true}}
	if err := backendtest.Default().Run(context.Background(), req, func(b *results.Rows) error { b.Release(); return nil }); !errors.Is(err, device.ErrNeedsInt64) {
		t.Fatalf("Run: %v, want device.ErrNeedsInt64", err)
	}
}

// TestRunAllPairs goes through Backend.Run: every row, a subset, the empty
// graph, an unknown family, int64 distances, a cancelled context.
func TestRunAllPairs(t *testing.T) {
	b := backendtest.Default()
	e := graphtest.RandomGraph(rand.New(rand.NewPCG(backendtest.FreshSeed(t), 1)), 400, 1000, 1, 9, 0)
	want, _ := graphtest.FloydWarshall(e)
	for _, sources := range [][]int32{backendtest.Vertices(400), {399, 3, 17, 18, 19, 0}} {
		req, err := backendtest.Request(t, e, backend.Algorithm{Name: "auto"}, sources, true)
		if err != nil {
			t.Fatal(err)
		}
		if req.Choice.Algorithm.Name != allpairs.AllPairsFamily && len(sources) == 400 {
			t.Fatalf("auto on every source chose %+v", req.Choice)
		}
		req.Choice = backend.Choice{Algorithm: backend.Algorithm{Name: allpairs.AllPairsFamily, Variant: allpairs.VariantFast}, AllPairs: true}
		col := gputest.NewCollector(&req, false)
		col.Check = against(e, graphtest.MatrixRows(400, want), true)
		before := runtime.NumGoroutine()
		err = b.Run(context.Background(), req, col.Sink)
		if err == nil {
			_, err = col.Done()
		}
		if err != nil {
			t.Fatalf("%d sources: %v", len(sources), err)
		}
		backendtest.NoLeaks(t, before)
	}
	empty := graph.NewEdgeList(0, 0)
	req, err := backendtest.Request(t, empty, backend.Algorithm{Name: allpairs.AllPairsFamily}, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Run(context.Background(), req, func(*results.Rows) error { return errors.New("a block of nothing") }); err != nil {
		t.Fatalf("empty graph: %v", err)
	}
	sink := func(r *results.Rows) error { r.Release(); return nil }
	fw := backend.Choice{Algorithm: backend.Algorithm{Name: allpairs.AllPairsFamily, Variant: allpairs.VariantBlocked}, AllPairs: true}
	if err := b.Run(context.Background(), backend.Request{Shape: results.Shape{Sources: []int32{0}}, Edges: e,
		Choice: backend.Choice{Algorithm: backend.Algorithm{Name: "johnson"}}}, sink); !errors.Is(err, backend.ErrUnsupported) {
		t.Fatalf("johnson: %v", err)
	}
	int64Choice := fw
	int64Choice.Int64 = true
	if err := b.Run(context.Background(), backend.Request{Shape: results.Shape{Sources: []int32{0}}, Edges: e, Choice: int64Choice}, sink); !errors.Is(err, backend.ErrUnsupported) {
		t.Fatalf("int64 distances: %v", err)
	}
	if err := b.Run(context.Background(), backend.Request{Shape: results.Shape{Sources: []int32{400}}, Edges: e, Choice: fw}, sink); err == nil {
		t.Fatal("source 400 of 400 vertices accepted")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := b.Run(ctx, backend.Request{Shape: results.Shape{Sources: backendtest.Vertices(400)}, Edges: e, Choice: fw}, sink); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled context: %v", err)
	}
}

// TestStreamPoolIsBounded holds on to every block it is handed: the run
// must stop once the pool is spent (the consumer holding all blocks but
// the one the producer has copied and waits to hand over), and go on as
// blocks come back.
func TestStreamPoolIsBounded(t *testing.T) {
	const pool, rowsPerBlock = 3, 4
	e := graphtest.RandomGraph(rand.New(rand.NewPCG(backendtest.FreshSeed(t), 3)), 200, 1500, 1, 20, 0)
	want, _ := graphtest.FloydWarshall(e)
	b := backendtest.Open(t, gpu.WithStaging(pool, rowsPerBlock*200*4))
	r, err := b.PrepareAllPairs(e, backend.Algorithm{}, true)
	if err != nil {
		t.Fatal(err)
	}
	defer backendtest.CloseChecked(t, "the run", r)
	if _, err := r.Compute(context.Background()); err != nil {
		t.Fatal(err)
	}
	req := &backend.Request{Shape: results.Shape{Sources: backendtest.Vertices(200), Columns: results.ColumnsOf(results.Parent)}, Edges: e}
	col := gputest.NewCollector(req, false)
	col.Check = against(e, graphtest.MatrixRows(200, want), true)
	var outstanding, peak atomic.Int64
	held := make(chan *results.Rows, 200)
	sink := func(b *results.Rows) error {
		v := outstanding.Add(1)
		for p := peak.Load(); v > p && !peak.CompareAndSwap(p, v); p = peak.Load() {
		}
		held <- b
		return nil
	}
	done := make(chan error, 1)
	go func() {
		_, err := r.Stream(context.Background(), req.Sources, sink)
		done <- err
	}()
	time.Sleep(300 * time.Millisecond)
	if got := outstanding.Load(); got != pool-1 {
		t.Fatalf("the consumer holds %d blocks after a pause, want all but one of the pool of %d", got, pool)
	}
	select {
	case err := <-done:
		t.Fatalf("Stream returned (%v) while the consumer held blocks", err)
	default:
	}
	release := func(b *results.Rows) {
		outstanding.Add(-1)
		if err := col.Sink(b); err != nil { // checks, then releases
			t.Error(err)
		}
	}
	for {
		select {
		case b := <-held:
			release(b)
			continue
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(time.Minute):
			t.Fatal("Stream still running after a minute")
		}
		break
	}
	if len(held) != 0 || outstanding.Load() != 0 {
		t.Fatalf("Stream returned with %d blocks unreleased", outstanding.Load())
	}
	if _, err := col.Done(); err != nil {
		t.Fatal(err)
	}
	if p := peak.Load(); p > pool {
		t.Fatalf("the consumer held %d blocks at once, more than the pool's %d", p, pool)
	}
}

// TestStreamStopsAtSinkError: a sink error mid-stream ends the run with
// that error, no block is handed over after it, every block comes back,
// no goroutine is left, and the backend works on. The same for a context
// cancelled mid-stream.
func TestStreamStopsAtSinkError(t *testing.T) {
	e := graphtest.RandomGraph(rand.New(rand.NewPCG(backendtest.FreshSeed(t), 4)), 300, 2000, 1, 20, 0)
	b := backendtest.Open(t, gpu.WithStaging(3, 5*300*4))
	fw := backend.Choice{Algorithm: backend.Algorithm{Name: allpairs.AllPairsFamily, Variant: allpairs.VariantFast}, AllPairs: true}
	req := backend.Request{Shape: results.Shape{Sources: backendtest.Vertices(300), Columns: results.ColumnsOf(results.Parent)}, Edges: e, Choice: fw}
	stop := errors.New("enough")
	for _, failAt := range []int64{1, 3, 40} {
		var calls atomic.Int64
		ctx, cancel := context.WithCancel(context.Background())
		for _, byCancel := range []bool{false, true} {
			calls.Store(0)
			sink := func(r *results.Rows) error {
				defer r.Release()
				if calls.Add(1) == failAt {
					if byCancel {
						cancel()
						return nil
					}
					return stop
				}
				return nil
			}
			before := runtime.NumGoroutine()
			done := make(chan error, 1)
			go func() { done <- b.Run(ctx, req, sink) }()
			var err error
			select {
			case err = <-done:
			case <-time.After(time.Minute):
				t.Fatalf("fail at %d: Run still running after a minute", failAt)
			}
			atReturn := calls.Load()
			wantErr := stop
			if byCancel {
				wantErr = context.Canceled
			}
			if !errors.Is(err, wantErr) {
				t.Fatalf("fail at %d, cancel %v: %v, want %v", failAt, byCancel, err, wantErr)
			}
			if atReturn != failAt && !byCancel {
				t.Fatalf("fail at %d: the sink was called %d times", failAt, atReturn)
			}
			time.Sleep(50 * time.Millisecond)
			if got := calls.Load(); got != atReturn {
				t.Fatalf("fail at %d: %d sink calls after Run returned", failAt, got-atReturn)
			}
			backendtest.NoLeaks(t, before)
		}
		cancel()
	}
	col := gputest.NewCollector(&req, false)
	if err := b.Run(context.Background(), req, col.Sink); err != nil {
		t.Fatalf("after the stopped runs: %v", err)
	}
	if _, err := col.Done(); err != nil {
		t.Fatal(err)
	}
}

// TestAllPairsGnutella04 checks every variant but row (too slow at this
// size) on p2p-Gnutella04 with the documented hash weights against Dijkstra
// from every source, and every parent row, streamed block by block.
func TestAllPairsGnutella04(t *testing.T) {
	if testing.Short() {
		t.Skip("p2p-Gnutella04 all pairs takes seconds of GPU and CPU time")
	}
	path, ok := datasets.MirrorFile("p2p-Gnutella04.txt")
	if !ok {
		t.Skipf("p2p-Gnutella04.txt not found in %s (set %s)", datasets.MirrorDir(), datasets.MirrorEnv)
	}
	e, err := benchgraphs.ReadSNAP(path)
	if err != nil {
		t.Fatal(err)
	}
	if e.N != 10876 || e.M() != 39994 {
		t.Fatalf("read %d vertices and %d arcs, want 10876 and 39994", e.N, e.M())
	}
	g := graph.BuildCSR(e)
	// Dijkstra once per source, shared by every configuration.
	want := make([][]int64, e.N)
	if err := gputest.ForEach(int(e.N), func(s int) error { want[s] = graphtest.Dijkstra(g, int32(s)); return nil }); err != nil {
		t.Fatal(err)
	}
	ref := func(s int32) []int64 { return want[s] }
	for _, c := range []config{
		{alg: backend.Algorithm{Variant: allpairs.VariantFast}},
		{alg: backend.Algorithm{Variant: allpairs.VariantFast}, strategy: allpairs.ParentsTrack},
		{alg: backend.Algorithm{Variant: allpairs.VariantFast}, strategy: allpairs.ParentsRecover},
		{alg: backend.Algorithm{Variant: allpairs.VariantBlocked}},
		{alg: backend.Algorithm{Variant: allpairs.VariantNaive}},
	} {
		for _, withParents := range []bool{false, true} {
			if c.strategy != allpairs.ParentsAuto && !withParents {
				continue
			}
			_, stats, err := streamFW(t, c.backend(), c.alg, e, nil, withParents, against(e, ref, withParents), false)
			if err != nil {
				t.Errorf("%v parents %v: %v", c, withParents, err)
				continue
			}
			t.Logf("%v parents %v: %v", c, withParents, stats)
		}
	}
}
