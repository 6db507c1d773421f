//go:build cuda

package sssp_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/pathflow/pathflow/datasets"
	"github.com/pathflow/pathflow/datasets/benchgraphs"
	"github.com/pathflow/pathflow/formats"
	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/generate"
	"github.com/pathflow/pathflow/internal/gpu"
	"github.com/pathflow/pathflow/internal/gpu/backendtest"
	"github.com/pathflow/pathflow/internal/gpu/device"
	"github.com/pathflow/pathflow/internal/gpu/gputest"
	"github.com/pathflow/pathflow/internal/gpu/sssp"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/graph/graphtest"
	"github.com/pathflow/pathflow/internal/results"
)

// ssspCase is one test graph for the single-source variants.
type ssspCase struct {
	name string
	g    *graph.CSR
	// small graphs also run the variants whose steps grow with the number
	// of distinct distances (Dijkstra) or with n (Bellman-Ford naive).
	small bool
}

// ssspCases builds the shared table: the real graphs when the mirror has
// them, road-like grids, degree-7 random graphs, Erdos-Renyi graphs with
// unreachable vertices and arbitrary random multigraphs with zero weights,
// the generated ones from seed.
func ssspCases(t *testing.T, seed uint64) []ssspCase {
	t.Helper()
	var cases []ssspCase
	add := func(name string, e *graph.EdgeList, err error, small bool) {
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		cases = append(cases, ssspCase{name: name, g: graph.BuildCSR(e), small: small})
	}
	if path, ok := datasets.MirrorFile("rome99.gr"); ok {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		e, err := formats.ReadDIMACS(f, path)
		add("rome99", e, errors.Join(err, f.Close()), true)
	} else {
		t.Logf("rome99.gr not in %s: skipped", datasets.MirrorDir())
	}
	if path, ok := datasets.MirrorFile("p2p-Gnutella04.txt"); ok {
		e, err := benchgraphs.ReadSNAP(path)
		add("Gnutella04", e, err, true)
	} else {
		t.Logf("p2p-Gnutella04.txt not in %s: skipped", datasets.MirrorDir())
	}
	e, err := generate.Grid(48, 1, 1000, seed)
	add("grid 48", e, err, true)
	e, err = generate.Grid(160, 1, 1000, seed+1)
	add("grid 160", e, err, false)
	e, err = generate.RandomDegree(3000, 7, 1, 1000, seed+2)
	add("degree-7 3000", e, err, true)
	e, err = generate.RandomDegree(60000, 7, 1, 1000, seed+3)
	add("degree-7 60000", e, err, false)
	e, err = generate.ErdosRenyi(2000, 0.0008, 1, 100, seed+4)
	add("erdos-renyi sparse", e, err, true)
	r := rand.New(rand.NewPCG(seed, 5))
	add("multigraph with zero weights", graphtest.RandomGraph(r, 700, 2500, 0, 3, 0), nil, true)
	add("single vertex", graph.NewEdgeList(1, 0), nil, true)
	return cases
}

// ssspTestSeeds are the fixed seeds plus a fresh one, logged.
func ssspTestSeeds(t *testing.T) []uint64 { return []uint64{1, backendtest.FreshSeed(t)} }

// ssspPickSources returns vertex 0, the last vertex and a few random ones.
func ssspPickSources(r *rand.Rand, n int32, random int) []int32 {
	s := []int32{0, n - 1}
	for range random {
		s = append(s, r.Int32N(n))
	}
	return s
}

// ssspSolve runs sources through a solver of variant with opts on b (the
// default backend when nil) and checks every row, as it is handed over,
// against the reference ref: distances, parents as loop-free trees, and
// that each row arrives once where it belongs.
func ssspSolve(t *testing.T, b *gpu.Backend, g *graph.CSR, variant string, opts sssp.Options, sources []int32, withParents bool,
	ref func(s int32) []int64) sssp.Stats {
	t.Helper()
	if b == nil {
		b = backendtest.Default()
	}
	s, err := b.PrepareSSSP(g, backend.Algorithm{Name: sssp.SSSPFamily, Variant: variant}, opts)
	if err != nil {
		t.Fatalf("%s: %v", variant, err)
	}
	defer backendtest.CloseChecked(t, "the solver", s)
	// A first solve allocates the buffers (near-far sizes them per solve);
	// backendtest.Poison them before the solve that is checked.
	release := func(r *results.Rows) error { r.Release(); return nil }
	if _, err := s.Solve(context.Background(), sources, withParents, release); err != nil {
		t.Fatalf("%s: %v", variant, err)
	}
	ssspPoison(t, s)
	req := &backend.Request{Shape: results.Shape{Sources: sources, Columns: results.ColumnsOf().With(results.Parent, withParents)}, CSR: g}
	col := gputest.NewCollector(req, false)
	col.Check = func(r *results.Rows) error { return gputest.CheckBlock(g, r, ref, withParents) }
	before := runtime.NumGoroutine()
	stats, err := s.Solve(context.Background(), sources, withParents, col.Sink)
	if err == nil {
		_, err = col.Done()
	}
	if err != nil {
		t.Fatalf("%s (parents %v, %+v): %v", variant, withParents, opts, err)
	}
	backendtest.NoLeaks(t, before)
	if stats.Sources != len(sources) || stats.Stream.Rows != len(sources) {
		t.Fatalf("%s: stats count %d sources, %d rows streamed, for %d", variant, stats.Sources, stats.Stream.Rows, len(sources))
	}
	return stats
}

// ssspPoison fills the solver's device buffers, its result rows and the
// cached pinned blocks with garbage, so that a cell no kernel or copy
// writes cannot pass for a result.
func ssspPoison(t *testing.T, s *sssp.Solver) {
	t.Helper()
	if err := s.FillBuffers(backendtest.Poison); err != nil {
		t.Fatal(err)
	}
	s.FillCached(backendtest.Poison)
}

func TestSSSPVariantsMatchDijkstra(t *testing.T) {
	for _, seed := range ssspTestSeeds(t) {
		r := rand.New(rand.NewPCG(seed, 7))
		for _, c := range ssspCases(t, seed) {
			sources := ssspPickSources(r, c.g.N, 2)
			ref := func(s int32) []int64 { return graphtest.Dijkstra(c.g, s) }
			for _, variant := range sssp.Variants {
				if !c.small && (variant == sssp.VariantDijkstra || variant == sssp.VariantBFNaive) {
					continue
				}
				for _, withParents := range []bool{false, true} {
					stats := ssspSolve(t, nil, c.g, variant, sssp.Options{}, sources, withParents, ref)
					t.Logf("seed %d %s %s parents %v: %d sources, %d steps, %d launches, %d host syncs, kernels %v",
						seed, c.name, variant, withParents, stats.Sources, stats.Steps, stats.Launches, stats.HostSyncs, stats.Kernel)
				}
			}
		}
	}
}

// TestSSSPNearFarShapes forces batches, block counts and deltas that the
// defaults would not pick: one block per source, batches that leave a
// partial last batch (and so the pinned staging), a delta of 1 (many
// splits) and one larger than every distance (a single bucket).
func TestSSSPNearFarShapes(t *testing.T) {
	seed := backendtest.FreshSeed(t)
	e, err := generate.Grid(96, 1, 1000, seed)
	if err != nil {
		t.Fatal(err)
	}
	g := graph.BuildCSR(e)
	r := rand.New(rand.NewPCG(seed, 11))
	sources := ssspPickSources(r, g.N, 35)
	ref := func(s int32) []int64 { return graphtest.Dijkstra(g, s) }
	for _, opts := range []sssp.Options{
		{BlocksPerSource: 1, Batch: 8},
		{BlocksPerSource: 3, Batch: 5, ThreadsPerBlock: 128},
		{BlocksPerSource: 40, Batch: 2, ThreadsPerBlock: 512},
		{Delta: 1, Batch: 16},
		{Delta: 1 << 29},
		{LocalRounds: -1},
		{LocalRounds: 1, BlocksPerSource: 2},
		{LocalRounds: 64, Batch: 4},
		{LocalRounds: 32, Delta: 1 << 29, ThreadsPerBlock: 64},
	} {
		for _, withParents := range []bool{false, true} {
			stats := ssspSolve(t, nil, g, sssp.VariantNearFar, opts, sources, withParents, ref)
			t.Logf("%+v parents %v: %d batches of %d, %d blocks each, %d steps, %d splits",
				opts, withParents, stats.Batches, stats.BatchSize, stats.BlocksPerSource, stats.Steps, stats.Splits)
		}
	}
}

func TestSSSPBellmanFordNegativeWeights(t *testing.T) {
	for _, seed := range ssspTestSeeds(t) {
		r := rand.New(rand.NewPCG(seed, 13))
		for _, shape := range []struct {
			n               int32
			arcs            int
			lo, hi, shift   int32
			withZeroWeights bool
		}{
			{n: 300, arcs: 1500, lo: 0, hi: 50, shift: 40},
			{n: 500, arcs: 700, lo: 0, hi: 20, shift: 100},
			{n: 200, arcs: 900, lo: 0, hi: 2, shift: 3},
		} {
			g := graph.BuildCSR(graphtest.RandomGraph(r, shape.n, shape.arcs, shape.lo, shape.hi, shape.shift))
			ref := func(s int32) []int64 {
				dist, ok := graphtest.BellmanFord(g, s)
				if !ok {
					panic("test graph with a negative cycle")
				}
				return dist
			}
			sources := ssspPickSources(r, g.N, 2)
			for _, variant := range []string{sssp.VariantBFNaive, sssp.VariantBFStride, sssp.VariantBFFlags} {
				for _, withParents := range []bool{false, true} {
					ssspSolve(t, nil, g, variant, sssp.Options{StepsPerCheck: 7}, sources, withParents, ref)
				}
			}
		}
	}
}

func TestSSSPNegativeCycleNamesAVertexOnIt(t *testing.T) {
	seed := backendtest.FreshSeed(t)
	r := rand.New(rand.NewPCG(seed, 17))
	e := graphtest.RandomGraph(r, 400, 1600, 0, 30, 20)
	// Plant one cycle of negative weight, reachable from 0 through a path.
	cycle := []int32{101, 202, 303, 57}
	e.Add(0, cycle[0], 1)
	for i, u := range cycle {
		e.Add(u, cycle[(i+1)%len(cycle)], -100)
	}
	g := graph.BuildCSR(e)
	for _, variant := range []string{sssp.VariantBFNaive, sssp.VariantBFStride, sssp.VariantBFFlags} {
		req := backend.Request{Shape: results.Shape{Sources: []int32{5, 0}, Columns: results.ColumnsOf(results.Parent), MaxDistance: results.NoCutoff}, CSR: g,
			Choice: backend.Choice{Algorithm: backend.Algorithm{Name: sssp.BellmanFordFamily, Variant: variant}}}
		col := gputest.NewCollector(&req, false)
		err := backendtest.Default().Run(context.Background(), req, col.Sink)
		var neg *backend.NegativeCycleError
		if !errors.As(err, &neg) {
			t.Fatalf("%s: got %v, want a negative cycle", variant, err)
		}
		// Any negative cycle qualifies: the named vertex must reach itself
		// at negative cost.
		if !ssspOnNegativeCycle(g, neg.Vertex) {
			t.Fatalf("%s: vertex %d is not on a negative cycle", variant, neg.Vertex)
		}
	}
}

// ssspOnNegativeCycle reports whether v reaches itself along a walk of negative
// weight, by Bellman-Ford from v over n rounds tracking the best return.
func ssspOnNegativeCycle(g *graph.CSR, v int32) bool {
	const inf = int64(1) << 62
	dist := make([]int64, g.N)
	for i := range dist {
		dist[i] = inf
	}
	dist[v] = 0
	back := inf
	for range g.N {
		next := slices.Clone(dist)
		for u := int32(0); u < g.N; u++ {
			if dist[u] == inf {
				continue
			}
			for i := g.Offsets[u]; i < g.Offsets[u+1]; i++ {
				w, d := g.Targets[i], dist[u]+int64(g.Weights[i])
				if w == v {
					back = min(back, d)
				}
				next[w] = min(next[w], d)
			}
		}
		dist = next
	}
	return back < 0
}

// TestSSSPRun goes through Backend.Run with Choices from Choose: many
// sources in small pinned blocks (near-far batches cut to them), repeats,
// parents, and Dijkstra.
func TestSSSPRun(t *testing.T) {
	seed := backendtest.FreshSeed(t)
	e, err := generate.Grid(64, 1, 1000, seed)
	if err != nil {
		t.Fatal(err)
	}
	g := graph.BuildCSR(e)
	r := rand.New(rand.NewPCG(seed, 19))
	sources := ssspPickSources(r, g.N, 200)
	ref := func(s int32) []int64 { return graphtest.Dijkstra(g, s) }
	b := backendtest.Open(t, gpu.WithStaging(3, 7*int64(g.N)*4))
	for _, alg := range []backend.Algorithm{{Name: "auto"}, {Name: sssp.DijkstraFamily}, {Name: sssp.BellmanFordFamily}} {
		srcs := sources
		if alg.Name != "auto" {
			srcs = sources[:9]
		}
		for _, withParents := range []bool{false, true} {
			req, err := backendtest.Request(t, e, alg, srcs, withParents)
			if err != nil {
				t.Fatal(err)
			}
			col := gputest.NewCollector(&req, false)
			col.Check = func(r *results.Rows) error { return gputest.CheckBlock(g, r, ref, withParents) }
			before := runtime.NumGoroutine()
			if err := b.Run(context.Background(), req, col.Sink); err != nil {
				t.Fatalf("%+v: %v", req.Choice.Algorithm, err)
			}
			if _, err := col.Done(); err != nil {
				t.Fatalf("%+v: %v", req.Choice.Algorithm, err)
			}
			if blocks, maxRows := col.Blocks(); maxRows > 7 || blocks < len(srcs)/7 {
				t.Fatalf("%+v: %d blocks of up to %d rows", req.Choice.Algorithm, blocks, maxRows)
			}
			backendtest.NoLeaks(t, before)
		}
	}
}

// TestSSSPStopsAtSinkError: a sink error ends the solve with that error
// after exactly that many blocks, a cancelled context ends it too, and the
// solver works on after both.
func TestSSSPStopsAtSinkError(t *testing.T) {
	e, err := generate.Grid(40, 1, 9, 3)
	if err != nil {
		t.Fatal(err)
	}
	g := graph.BuildCSR(e)
	b := backendtest.Open(t, gpu.WithStaging(2, 2*int64(g.N)*4))
	for _, variant := range []string{sssp.VariantNearFar, sssp.VariantBFFlags} {
		s, err := b.PrepareSSSP(g, backend.Algorithm{Name: sssp.SSSPFamily, Variant: variant}, sssp.Options{Batch: 2, BlocksPerSource: 1})
		if err != nil {
			t.Fatal(err)
		}
		stop := errors.New("enough")
		var calls atomic.Int64
		before := runtime.NumGoroutine()
		_, err = s.Solve(context.Background(), []int32{1, 2, 3, 4, 5, 6, 7, 8, 9}, true, func(r *results.Rows) error {
			defer r.Release()
			if calls.Add(1) == 3 {
				return stop
			}
			return nil
		})
		if !errors.Is(err, stop) || calls.Load() != 3 {
			t.Fatalf("%s: err %v after %d calls, want %v after 3", variant, err, calls.Load(), stop)
		}
		backendtest.NoLeaks(t, before)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := s.Solve(ctx, []int32{1, 2, 3}, false, func(r *results.Rows) error { r.Release(); return nil }); !errors.Is(err, context.Canceled) {
			t.Fatalf("%s: cancelled solve: %v", variant, err)
		}
		req := &backend.Request{Shape: results.Shape{Sources: []int32{9, 4, 30}, Columns: results.ColumnsOf(results.Parent), MaxDistance: results.NoCutoff}, CSR: g}
		col := gputest.NewCollector(req, false)
		col.Check = func(r *results.Rows) error {
			return gputest.CheckBlock(g, r, func(s int32) []int64 { return graphtest.Dijkstra(g, s) }, true)
		}
		if _, err := s.Solve(context.Background(), req.Sources, true, col.Sink); err != nil {
			t.Fatalf("%s: after the stopped solves: %v", variant, err)
		}
		if _, err := col.Done(); err != nil {
			t.Fatal(err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

func TestSSSPRefusals(t *testing.T) {
	b := backendtest.Default()
	neg := graph.NewEdgeList(3, 2)
	neg.Add(0, 1, -1)
	neg.Add(1, 2, 4)
	release := func(r *results.Rows) error { r.Release(); return nil }
	for _, variant := range []string{sssp.VariantNearFar, sssp.VariantDijkstra} {
		alg := backend.Algorithm{Name: sssp.SSSPFamily, Variant: variant}
		if _, err := backendtest.Request(t, neg, alg, []int32{0}, false); !errors.Is(err, backend.ErrUnsupported) {
			t.Errorf("Choose %s on a negative arc: %v", variant, err)
		}
		req := backend.Request{Shape: results.Shape{Sources: []int32{0}}, Edges: neg, Choice: backend.Choice{Algorithm: alg}}
		if err := b.Run(context.Background(), req, release); !errors.Is(err, device.ErrNotSupported) {
			t.Errorf("Run %s on a negative arc: %v", variant, err)
		}
	}
	// sssp picks bf-flags for negative weights.
	req, err := backendtest.Request(t, neg, backend.Algorithm{Name: sssp.SSSPFamily}, []int32{0}, true)
	if err != nil || req.Choice.Algorithm.Variant != sssp.VariantBFFlags {
		t.Fatalf("sssp on negative weights: %+v, %v", req.Choice, err)
	}
	col := gputest.NewCollector(&req, true)
	if err := b.Run(context.Background(), req, col.Sink); err != nil {
		t.Fatal(err)
	}
	trees, err := col.Done()
	if err != nil || trees[0].Dist[2] != 3 || trees[0].Parent[2] != 1 {
		t.Fatalf("sssp on negative weights: %v %+v", err, trees)
	}
	big := graph.NewEdgeList(3, 2)
	big.Add(0, 1, 1<<29)
	big.Add(1, 2, 1<<29)
	if _, err := backendtest.Request(t, big, backend.Algorithm{Name: sssp.BellmanFordFamily}, []int32{0}, false); !errors.Is(err, backend.ErrNeedsInt64) {
		t.Errorf("Choose on overflowing distances: %v", err)
	}
	bigReq := backend.Request{Shape: results.Shape{Sources: []int32{0}}, Edges: big, Choice: backend.Choice{Algorithm: backend.Algorithm{Name: sssp.BellmanFordFamily}}}
	if err := b.Run(context.Background(), bigReq, release); !errors.Is(err, device.ErrNeedsInt64) {
		t.Errorf("Run on overflowing distances: %v", err)
	}
	outside := backend.Request{Shape: results.Shape{Sources: []int32{3}}, Edges: neg, Choice: backend.Choice{Algorithm: backend.Algorithm{Name: sssp.SSSPFamily}}}
	if err := b.Run(context.Background(), outside, release); err == nil {
		t.Errorf("source outside the graph accepted")
	}
}

// TestSSSPNearFarBeyondTheInt32Bound runs near-far on a graph whose
// worst-case distance bound exceeds int32 but whose real distances fit, and
// on one where a real distance reaches graph.Inf32.
func TestSSSPNearFarBeyondTheInt32Bound(t *testing.T) {
	seed := backendtest.FreshSeed(t)
	e, err := generate.RandomDegree(3000, 7, 1, 1_000_000, seed)
	if err != nil {
		t.Fatal(err)
	}
	g := graph.BuildCSR(e)
	if graph.FitsInt32Distances(int64(g.N), 1, 1_000_000) {
		t.Fatal("test graph fits the int32 bound")
	}
	r := rand.New(rand.NewPCG(seed, 23))
	ssspSolve(t, nil, g, sssp.VariantNearFar, sssp.Options{}, ssspPickSources(r, g.N, 3), true,
		func(s int32) []int64 { return graphtest.Dijkstra(g, s) })

	far := graph.NewEdgeList(4, 3)
	for v := int32(0); v < 3; v++ {
		far.Add(v, v+1, 1<<29-1)
	}
	req, err := backendtest.Request(t, far, backend.Algorithm{Name: sssp.SSSPFamily}, []int32{0}, false)
	if err != nil {
		t.Fatalf("Choose lets near-far check its distances: %v", err)
	}
	col := gputest.NewCollector(&req, false)
	if err := backendtest.Default().Run(context.Background(), req, col.Sink); !errors.Is(err, backend.ErrNeedsInt64) {
		t.Fatalf("distance 3 * (2^29 - 1): %v, want device.ErrNeedsInt64", err)
	}
	if blocks, _ := col.Blocks(); blocks != 0 {
		t.Fatalf("%d blocks handed over before the overflow was found", blocks)
	}
}
