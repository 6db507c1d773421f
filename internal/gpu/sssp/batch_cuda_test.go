//go:build cuda

package sssp_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/generate"
	"github.com/pathflow/pathflow/internal/gpu"
	"github.com/pathflow/pathflow/internal/gpu/backendtest"
	"github.com/pathflow/pathflow/internal/gpu/sssp"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/graph/graphtest"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/results"
)

// batchQuery is one shape of a batched request: its targets (shared or per
// source) and cutoff, named for the log.
type batchQuery struct {
	name          string
	targets       []int32
	sourceTargets [][]int32
	cutoff        int64
	// cells lets the rows come as their cells within the cutoff
	// (backend.Request.CutoffCells).
	cells bool
}

// batchQueries are the shapes every graph is checked in: whole rows,
// targets that include the sources and (on graphs that have them)
// unreachable vertices, cutoffs of 0, of a typical distance and beyond
// every distance (also as sparse rows of the cells within them), and
// per-source target lists.
func batchQueries(r *rand.Rand, n int32, sources []int32, typical int64) []batchQuery {
	targets := append(slices.Clone(sources[:min(3, len(sources))]), r.Int32N(n), r.Int32N(n), n-1, 0)
	for range 40 {
		targets = append(targets, r.Int32N(n))
	}
	lists := make([][]int32, len(sources))
	for i := range lists {
		for range r.IntN(12) {
			lists[i] = append(lists[i], r.Int32N(n))
		}
		if i%3 == 0 {
			lists[i] = append(lists[i], sources[i])
		}
	}
	return []batchQuery{
		{name: "whole rows", cutoff: results.NoCutoff},
		{name: "targets", targets: targets, cutoff: results.NoCutoff},
		{name: "cutoff 0", cutoff: 0},
		{name: "typical cutoff", cutoff: typical},
		{name: "cutoff beyond every distance", cutoff: 1 << 40},
		{name: "cutoff 0, sparse", cutoff: 0, cells: true},
		{name: "typical cutoff, sparse", cutoff: typical, cells: true},
		{name: "cutoff beyond every distance, sparse", cutoff: 1 << 40, cells: true},
		{name: "targets within a cutoff", targets: targets, cutoff: typical},
		{name: "pairs", sourceTargets: lists, cutoff: results.NoCutoff},
	}
}

// TestSSSPBatchMatchesDijkstra runs the batched search over the shared
// graph table in every query shape, with and without parents, on sources
// that include a repeat, and checks each cell against Dijkstra's: equal
// distances (beyond a cutoff: unreachable or the true distance), and a
// parent that closes a shortest path through an existing arc.
func TestSSSPBatchMatchesDijkstra(t *testing.T) {
	b := backendtest.Default()
	for _, seed := range ssspTestSeeds(t) {
		for _, c := range ssspCases(t, seed) {
			r := rand.New(rand.NewPCG(seed, 77))
			sources, refs, typical := queriedSources(r, c.g)
			for _, q := range batchQueries(r, c.g.N, sources, typical) {
				for _, parents := range []bool{false, true} {
					name := fmt.Sprintf("%s/seed %d/%s/parents %v", c.name, seed, q.name, parents)
					req := &backend.Request{Shape: results.Shape{Sources: sources, Targets: q.targets, SourceTargets: q.sourceTargets, MaxDistance: q.cutoff, CutoffCells: q.cells, Columns: results.ColumnsOf().With(results.Parent, parents)}, CSR: c.g,
						Choice: backend.Choice{Algorithm: backend.Algorithm{Name: sssp.SSSPFamily}}}
					if err := checkBatch(b, req, refs, sssp.Options{}); err != nil {
						t.Fatalf("%s: %v", name, err)
					}
				}
			}
		}
	}
}

// TestSSSPBatchSmallLaunches cuts a run into launches of a few sources,
// so that groups of fewer than 32 lanes and several launches per run are
// exercised, and checks the result as above.
func TestSSSPBatchSmallLaunches(t *testing.T) {
	b := backendtest.Default()
	for _, c := range ssspCases(t, 3) {
		r := rand.New(rand.NewPCG(3, 78))
		sources := ssspPickSources(r, c.g.N, 70)
		refs := referenceRows(c.g, sources)
		for _, batch := range []int{1, 5, 33} {
			for _, q := range batchQueries(r, c.g.N, sources, 1000) {
				req := &backend.Request{Shape: results.Shape{Sources: sources, Targets: q.targets, SourceTargets: q.sourceTargets, MaxDistance: q.cutoff, CutoffCells: q.cells, Columns: results.ColumnsOf(results.Parent)}, CSR: c.g}
				if err := checkBatch(b, req, refs, sssp.Options{Batch: batch}); err != nil {
					t.Fatalf("%s/batch %d/%s: %v", c.name, batch, q.name, err)
				}
			}
		}
	}
}

// queriedSources picks 40 sources of g and repeats one (a source searched
// twice), with Dijkstra's rows from them and a typical distance for the
// cutoffs of batchQueries (a reached one, or 500).
func queriedSources(r *rand.Rand, g *graph.CSR) (sources []int32, refs [][]int64, typical int64) {
	sources = ssspPickSources(r, g.N, 40)
	sources = append(sources, sources[2])
	refs = referenceRows(g, sources)
	typical = refs[0][r.IntN(int(g.N))]
	if typical == paths.Unreachable {
		typical = 500
	}
	return sources, refs, typical
}

// referenceRows are Dijkstra's distances from every source.
func referenceRows(g *graph.CSR, sources []int32) [][]int64 {
	refs := make([][]int64, len(sources))
	var wg sync.WaitGroup
	for i, s := range sources {
		wg.Go(func() { refs[i] = graphtest.Dijkstra(g, s) })
	}
	wg.Wait()
	return refs
}

// checkBatch runs req through SolveBatch and checks every cell of every
// block against refs (one row per source).
func checkBatch(b *gpu.Backend, req *backend.Request, refs [][]int64, opts sssp.Options) error {
	return checkRows(req, refs, func(sink results.Sink) error {
		_, err := b.SolveBatch(context.Background(), req.CSR, req, opts, sink)
		return err
	})
}

// checkBatchRun runs req through Backend.Run and checks it as checkBatch
// does.
func checkBatchRun(b *gpu.Backend, req *backend.Request, refs [][]int64) error {
	return checkRows(req, refs, func(sink results.Sink) error { return b.Run(context.Background(), *req, sink) })
}

// checkRows checks every cell of every block run hands its sink against
// refs (one row per source), and that each row arrives once.
func checkRows(req *backend.Request, refs [][]int64, run func(results.Sink) error) error {
	var (
		mu     sync.Mutex
		seen   = make([]bool, len(req.Sources))
		bad    error
		sparse int
	)
	sink := func(rows *results.Rows) error {
		defer rows.Release()
		if err := req.CheckRows(rows); err != nil {
			return err
		}
		if rows.Sparse() {
			mu.Lock()
			sparse++
			mu.Unlock()
		}
		for i := range rows.Len() {
			row := rows.First + i
			if err := checkBatchRow(req, rows, i, refs[row]); err != nil {
				return fmt.Errorf("row %d (source %d): %w", row, req.Sources[row], err)
			}
			mu.Lock()
			if seen[row] {
				bad = fmt.Errorf("row %d handed over twice", row)
			}
			seen[row] = true
			mu.Unlock()
		}
		return nil
	}
	if err := run(sink); err != nil {
		return err
	}
	if bad != nil {
		return bad
	}
	if i := slices.Index(seen, false); i >= 0 {
		return fmt.Errorf("row %d never handed over", i)
	}
	// With a cutoff of 0 a row is one cell: sparse rows always fit, except
	// where parents over weights <= 0 are mended on whole rows.
	lo, _ := req.CSR.WeightRange()
	if req.SparseRows() && req.MaxDistance == 0 && req.CSR.N > 1 && !(req.Wants(results.Parent) && lo <= 0) && sparse == 0 {
		return fmt.Errorf("no sparse block, though rows of one cell fit")
	}
	return nil
}

// checkBatchRow checks row i of rows against want, the source's whole
// reference row. A sparse row must list exactly the vertices within the
// cutoff.
func checkBatchRow(req *backend.Request, rows *results.Rows, i int, want []int64) error {
	g, source := req.CSR, rows.Sources[i]
	lo, hi := rows.Span(i)
	if rows.Sparse() {
		within := 0
		for _, d := range want {
			if d != paths.Unreachable && d <= req.MaxDistance {
				within++
			}
		}
		if hi-lo != within {
			return fmt.Errorf("sparse row of %d cells, %d vertices lie within the cutoff %d", hi-lo, within, req.MaxDistance)
		}
	}
	for j := range hi - lo {
		v := int32(j)
		switch {
		case rows.Sparse():
			v = rows.Vertices[lo+j]
		case req.SourceTargets != nil:
			v = req.SourceTargets[rows.First+i][j]
		case req.Targets != nil:
			v = req.Targets[j]
		}
		got, exact := rows.Distances().Weight(lo+j), want[v]
		beyond := req.MaxDistance != results.NoCutoff && (exact == paths.Unreachable || exact > req.MaxDistance)
		if got != exact && !(beyond && got == paths.Unreachable) {
			return fmt.Errorf("vertex %d: distance %d, want %d", v, got, exact)
		}
		if rows.Parent == nil {
			continue
		}
		p := rows.Parent[lo+j]
		switch {
		case got == paths.Unreachable || v == source:
			if p != paths.NoParent {
				return fmt.Errorf("vertex %d (distance %d): parent %d, want none", v, got, p)
			}
		case p < 0 || !tightArc(g, p, v, want):
			return fmt.Errorf("vertex %d: parent %d closes no shortest path", v, p)
		}
	}
	return nil
}

// tightArc reports an arc u -> v with dist[u] + w == dist[v].
func tightArc(g *graph.CSR, u, v int32, dist []int64) bool {
	if dist[u] == paths.Unreachable {
		return false
	}
	for e := g.Offsets[u]; e < g.Offsets[u+1]; e++ {
		if g.Targets[e] == v && dist[u]+int64(g.Weights[e]) == dist[v] {
			return true
		}
	}
	return false
}

// TestSSSPBatchSpreadOverContexts splits a batched run with targets and
// one with per-source lists over two contexts on one GPU (as over two
// GPUs): every cell is checked against Dijkstra, and each context reports
// its own facts, whose sources add up to the run's.
func TestSSSPBatchSpreadOverContexts(t *testing.T) {
	two := backendtest.Open(t, gpu.WithDevices([]int{0, 0}))
	r := rand.New(rand.NewPCG(backendtest.FreshSeed(t), 23))
	e := graphtest.RandomGraph(r, 4000, 16000, 1, 100, 0)
	g := graph.BuildCSR(e)
	sources := ssspPickSources(r, g.N, 90)
	refs := referenceRows(g, sources)
	for _, q := range batchQueries(r, g.N, sources, 300) {
		var mu sync.Mutex
		facts := map[string]sssp.BatchFacts{}
		req := &backend.Request{Shape: results.Shape{Sources: sources, Targets: q.targets, SourceTargets: q.sourceTargets, MaxDistance: q.cutoff, CutoffCells: q.cells, Columns: results.ColumnsOf(results.Parent)}, CSR: g,
			Choice: backend.Choice{Algorithm: backend.Algorithm{Name: sssp.SSSPFamily}},
			Facts: func(key string, v any) {
				// The devices' own facts; the run's (the shared uploads)
				// are checked elsewhere.
				if f, ok := v.(sssp.BatchFacts); ok {
					mu.Lock()
					facts[key] = f
					mu.Unlock()
				}
			}}
		if err := checkBatchRun(two, req, refs); err != nil {
			t.Fatalf("%s: %v", q.name, err)
		}
		if len(facts) != 2 || facts["context0.gpu0"].Sources+facts["context1.gpu0"].Sources != len(sources) {
			t.Fatalf("%s: facts %+v, want two contexts sharing %d sources", q.name, facts, len(sources))
		}
	}
}

// TestSSSPBatchSparseRowsOfALargeGraph runs rows within cutoffs on a grid
// large enough that its launches' pinned blocks, sized for cells, are
// smaller than whole rows: a small cutoff's cells go through them, a wide
// one's through pageable memory, and one beyond every distance comes back
// as whole rows the same way. Every cell is checked against Dijkstra.
func TestSSSPBatchSparseRowsOfALargeGraph(t *testing.T) {
	if testing.Short() {
		t.Skip("a 640,000-vertex grid")
	}
	b := backendtest.Default()
	e, err := generate.Grid(800, 1, 100, backendtest.FreshSeed(t))
	if err != nil {
		t.Fatal(err)
	}
	g := graph.BuildCSR(e)
	r := rand.New(rand.NewPCG(5, 6))
	sources := ssspPickSources(r, g.N, 40)
	refs := referenceRows(g, sources)
	for _, cutoff := range []int64{300, refs[0][g.N/2], 1 << 40} {
		for _, parents := range []bool{false, true} {
			req := &backend.Request{Shape: results.Shape{Sources: sources, MaxDistance: cutoff, CutoffCells: true, Columns: results.ColumnsOf().With(results.Parent, parents)}, CSR: g,
				Choice: backend.Choice{Algorithm: backend.Algorithm{Name: sssp.SSSPFamily}}}
			if err := checkBatch(b, req, refs, sssp.Options{}); err != nil {
				t.Fatalf("cutoff %d, parents %v: %v", cutoff, parents, err)
			}
		}
	}
}
