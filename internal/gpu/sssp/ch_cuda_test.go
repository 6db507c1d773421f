//go:build cuda

package sssp_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/generate"
	"github.com/pathflow/pathflow/internal/gpu"
	"github.com/pathflow/pathflow/internal/gpu/backendtest"
	"github.com/pathflow/pathflow/internal/gpu/sssp"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/hierarchy"
	"github.com/pathflow/pathflow/internal/results"
)

// chCases are the graphs the GPU's ch is checked on: the shared SSSP cases
// (rome99, grids, random graphs, zero weights and parallel arcs) and
// road-like graphs, where a hierarchy has fast lines to find.
func chCases(t *testing.T, seed uint64) []ssspCase {
	var cases []ssspCase
	for _, c := range ssspCases(t, seed) {
		// Random graphs of thousands of vertices have no hierarchy to
		// find: contracting them takes minutes (docs/road-networks.md).
		if !strings.HasPrefix(c.name, "degree-7") && c.name != "Gnutella04" && c.name != "grid 160" {
			cases = append(cases, c)
		}
	}
	for _, side := range []int32{1, 40, 90} {
		e, _, err := generate.Road(side, seed+uint64(side))
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, ssspCase{name: fmt.Sprintf("road %d", side), g: graph.BuildCSR(e), small: true})
	}
	return cases
}

// TestCHMatchesDijkstra runs ch through Run in every query shape of the
// batched search (whole rows, targets, cutoffs, pairs), with and without
// parents, on one device and spread over two contexts, with the
// hierarchy handed in and built by Run, and checks every cell against
// Dijkstra's as the batched search's test does.
func TestCHMatchesDijkstra(t *testing.T) {
	seed := backendtest.FreshSeed(t)
	one, two := backendtest.Default(), backendtest.Open(t, gpu.WithDevices([]int{0, 0}))
	for _, c := range chCases(t, seed) {
		if testing.Short() && !c.small {
			continue
		}
		r := rand.New(rand.NewPCG(seed, 79))
		sources, refs, typical := queriedSources(r, c.g)
		h, err := hierarchy.Build(context.Background(), c.g)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for qi, q := range batchQueries(r, c.g.N, sources, typical) {
			for _, parents := range []bool{false, true} {
				b, given := one, h
				if qi%2 == 1 {
					b, given = two, nil // Run builds one, once for both contexts
				}
				built, swept := 0, int64(0)
				var mu sync.Mutex
				req := &backend.Request{Shape: results.Shape{Sources: sources, Targets: q.targets, SourceTargets: q.sourceTargets, MaxDistance: q.cutoff, CutoffCells: q.cells, Columns: results.ColumnsOf().With(results.Parent, parents)}, CSR: c.g,
					Hierarchy: given,
					Choice:    backend.Choice{Algorithm: backend.Algorithm{Name: sssp.AlgorithmCH}},
					Facts: func(key string, v any) {
						mu.Lock()
						defer mu.Unlock()
						if key == hierarchy.FactKey {
							built++
						}
						if f, ok := v.(sssp.BatchFacts); ok {
							swept = max(swept, f.SweptVertices)
						}
					}}
				if err := checkBatchRun(b, req, refs); err != nil {
					t.Fatalf("%s/seed %d/%s/parents %v: %v", c.name, seed, q.name, parents, err)
				}
				if want := map[bool]int{true: 1, false: 0}[given == nil]; built != want {
					t.Fatalf("%s/%s: hierarchy built %d times, want %d", c.name, q.name, built, want)
				}
				// 46 targets of a road network reach a small part of it.
				if c.name == "road 90" && q.name == "targets" && 2*swept > int64(c.g.N) {
					t.Fatalf("%s/%s: each sweep settled %d of %d vertices", c.name, q.name, swept, c.g.N)
				}
			}
		}
	}
}

// roadWithHierarchy is the road-like graph of the given side and seed and
// its contraction hierarchy.
func roadWithHierarchy(t *testing.T, side int32, seed uint64) (*graph.CSR, *hierarchy.Hierarchy) {
	t.Helper()
	e, _, err := generate.Road(side, seed)
	if err != nil {
		t.Fatal(err)
	}
	g := graph.BuildCSR(e)
	h, err := hierarchy.Build(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	return g, h
}

// TestCHSmallLaunches cuts ch runs into launches of a few sources, so that
// part-filled groups and several launches per run are exercised.
func TestCHSmallLaunches(t *testing.T) {
	g, h := roadWithHierarchy(t, 50, 3)
	r := rand.New(rand.NewPCG(3, 80))
	sources := ssspPickSources(r, g.N, 70)
	refs := referenceRows(g, sources)
	b := backendtest.Default()
	for _, batch := range []int{1, 5, 33} {
		for _, q := range batchQueries(r, g.N, sources, 5000) {
			req := &backend.Request{Shape: results.Shape{Sources: sources, Targets: q.targets, SourceTargets: q.sourceTargets, MaxDistance: q.cutoff, CutoffCells: q.cells, Columns: results.ColumnsOf(results.Parent)}, CSR: g,
				Hierarchy: h, Choice: backend.Choice{Algorithm: backend.Algorithm{Name: sssp.AlgorithmCH}}}
			if err := checkBatch(b, req, refs, sssp.Options{Batch: batch}); err != nil {
				t.Fatalf("batch %d/%s: %v", batch, q.name, err)
			}
		}
	}
}

// BenchmarkCH times ch on the GPU on a road-like graph
// (BENCH_ROAD_SIDE, default 1024: 1.05M vertices; synthetic, not
// a real road network), its hierarchy built once on the host (not timed
// in the shapes): a 200 x 200 and a 1,000 x 1,000 table (sources 0.., the
// targets from n/2), 1,000 x 1,000 random endpoints, and 64 and 256 whole
// rows (one-to-all trees). Each shape runs once after a warm-up, from the
// call to the last block handed over (copies to the host included, no
// output written); rows are checked against Dijkstra. Run with -bench CH
// -benchtime 1x.
func BenchmarkCH(b *testing.B) {
	side := int32(1024)
	if s, err := strconv.Atoi(os.Getenv("BENCH_ROAD_SIDE")); err == nil {
		side = int32(s)
	}
	e, _, err := generate.Road(side, 1)
	if err != nil {
		b.Fatal(err)
	}
	g := graph.BuildCSR(e)
	n := g.N
	be := backendtest.Default()
	began := time.Now()
	h, err := hierarchy.Build(context.Background(), g)
	if err != nil {
		b.Fatal(err)
	}
	levels := h.Levels()
	b.Logf("road %d (synthetic): n %d, m %d, device %s, %s; hierarchy built on the host in %.1f s, %d shortcuts, %d levels",
		side, n, g.M(), be.Device(), time.Now().Format("2006-01-02"), time.Since(began).Seconds(), h.Shortcuts(), len(levels)-1)
	span := func(lo, count int32) []int32 {
		s := make([]int32, count)
		for i := range s {
			s[i] = lo + int32(i)
		}
		return s
	}
	r := rand.New(rand.NewPCG(1, 2))
	random := func(count int) []int32 {
		s := make([]int32, count)
		for i := range s {
			s[i] = r.Int32N(n)
		}
		return s
	}
	shapes := []struct {
		name string
		req  backend.Request
	}{
		{"table-200", backend.Request{Shape: results.Shape{Sources: span(0, 200), Targets: span(n/2, 200)}}},
		{"table-1000", backend.Request{Shape: results.Shape{Sources: span(0, 1000), Targets: span(n/2, 1000)}}},
		{"table-1000-random", backend.Request{Shape: results.Shape{Sources: random(1000), Targets: random(1000)}}},
		{"table-1000-parents", backend.Request{Shape: results.Shape{Sources: span(0, 1000), Targets: span(n/2, 1000), Columns: results.ColumnsOf(results.Parent)}}},
		{"trees-64", backend.Request{Shape: results.Shape{Sources: span(0, 64)}}},
		{"trees-256", backend.Request{Shape: results.Shape{Sources: random(256)}}},
	}
	for _, s := range shapes {
		req := s.req
		req.CSR, req.Hierarchy, req.MaxDistance = g, h, results.NoCutoff
		req.Choice = backend.Choice{Algorithm: backend.Algorithm{Name: sssp.AlgorithmCH}}
		if len(req.Sources) > len(uniqueSources(req.Sources)) {
			req.Sources = uniqueSources(req.Sources)
		}
		b.Run(s.name, func(b *testing.B) {
			var facts sssp.BatchFacts
			req.Facts = func(key string, v any) {
				if f, ok := v.(sssp.BatchFacts); ok {
					facts = f
				}
			}
			refs := referenceRows(g, req.Sources[:2])
			check := func(rows *results.Rows) error {
				defer rows.Release()
				for i := range rows.Len() {
					if row := rows.First + i; row < 2 {
						if err := checkBatchRow(&req, rows, i, refs[row]); err != nil {
							return err
						}
					}
				}
				return nil
			}
			if err := be.Run(context.Background(), req, check); err != nil { // warm-up
				b.Fatal(err)
			}
			b.ResetTimer()
			for b.Loop() {
				if err := be.Run(context.Background(), req, check); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/run")
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N*len(req.Sources)), "ms/source")
			b.Logf("%s: %+v", s.name, facts)
		})
	}
}

// uniqueSources drops repeats, keeping the first of each.
func uniqueSources(s []int32) []int32 {
	seen := map[int32]bool{}
	var out []int32
	for _, v := range s {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// TestCHParentsAreTheSearchesParents: a compact ch run reads parents over
// the swept vertices' positions and maps them back; they must be the
// batched search's parents (the smallest tight in-neighbour by id), cell
// for cell, for shared targets and pair lists.
func TestCHParentsAreTheSearchesParents(t *testing.T) {
	g, h := roadWithHierarchy(t, 90, 5)
	r := rand.New(rand.NewPCG(5, 81))
	sources := ssspPickSources(r, g.N, 50)
	b := backendtest.Default()
	for _, q := range batchQueries(r, g.N, sources, 5000) {
		if q.targets == nil && q.sourceTargets == nil {
			continue
		}
		cells := func(alg string) []int32 {
			req := backend.Request{Shape: results.Shape{Sources: sources, Targets: q.targets, SourceTargets: q.sourceTargets, MaxDistance: results.NoCutoff, Columns: results.ColumnsOf(results.Parent)}, CSR: g,
				Hierarchy: h, Choice: backend.Choice{Algorithm: backend.Algorithm{Name: alg}}}
			out := make([][]int32, len(sources))
			var mu sync.Mutex
			err := b.Run(context.Background(), req, func(rows *results.Rows) error {
				defer rows.Release()
				mu.Lock()
				defer mu.Unlock()
				for i := range rows.Len() {
					lo, hi := rows.Span(i)
					out[rows.First+i] = slices.Clone(rows.Parent[lo:hi])
				}
				return nil
			})
			if err != nil {
				t.Fatalf("%s/%s: %v", alg, q.name, err)
			}
			return slices.Concat(out...)
		}
		if ch, nf := cells(sssp.AlgorithmCH), cells(sssp.SSSPFamily); !slices.Equal(ch, nf) {
			t.Fatalf("%s: ch's parents differ from the batched search's", q.name)
		}
	}
}
