package cpu

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/graph/graphtest"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/results"
)

// metricCell is one answered cell of a metric request.
type metricCell struct {
	dist, metric int64
	parent       int32
}

// runMetric runs req on a backend with small blocks and returns its cells
// by (row, vertex).
func runMetric(t *testing.T, req backend.Request) (map[[2]int32]metricCell, error) {
	t.Helper()
	b := New(2)
	b.blockValues = 64
	cells := map[[2]int32]metricCell{}
	var mu sync.Mutex
	err := b.Run(context.Background(), req, func(rows *results.Rows) error {
		defer rows.Release()
		if err := req.CheckRows(rows); err != nil {
			t.Error(err)
			return err
		}
		if !rows.Has(results.Metric) {
			t.Errorf("block at row %d holds no metric", rows.First)
		}
		mu.Lock()
		defer mu.Unlock()
		for i, s := range rows.Sources {
			lo, hi := rows.Span(i)
			targets := req.RowTargets(rows.First + i)
			for c := lo; c < hi; c++ {
				v := int32(c - lo)
				switch {
				case rows.Sparse():
					v = rows.Vertices[c]
				case targets != nil:
					v = targets[c-lo]
				}
				cell := metricCell{dist: rows.Dist64[c], metric: rows.Metric64[c], parent: paths.NoParent}
				if rows.Parent != nil {
					cell.parent = rows.Parent[c]
				}
				cells[[2]int32{s, v}] = cell
			}
		}
		return nil
	})
	return cells, err
}

// TestMetricFollowsLexicographicPaths checks that Dijkstra and ch report,
// for whole rows, rows narrowed to shared targets, per-source target lists
// and sparse rows within a cutoff, the weight and the metric of the path
// shortest by (weight, metric), and parents along such a path, on random
// graphs whose weights tie often.
func TestMetricFollowsLexicographicPaths(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 31))
	e := graphtest.WithMetric(r, graphtest.RandomGraph(r, 120, 600, 0, 3, 0), 0, 30)
	g := graph.BuildCSR(e)
	sources := []int32{0, 3, 7, 50, 119}
	want := map[int32][2][]int64{}
	for _, s := range sources {
		d, m := graphtest.Lexicographic(g, s)
		want[s] = [2][]int64{d, m}
	}
	targets := []int32{119, 4, 0, 60, 61, 3}
	perSource := [][]int32{{1, 2}, {3}, {119, 0, 5}, {}, {50, 51, 52}}
	shapes := map[string]results.Shape{
		"whole":   {},
		"targets": {Targets: targets},
		"lists":   {SourceTargets: perSource},
		"cutoff":  {MaxDistance: 4, CutoffCells: true},
		// Every list empty: blocks without cells, which still hold the
		// metric's column.
		"no cells": {SourceTargets: make([][]int32, len(sources))},
	}
	for _, alg := range []string{backend.AlgorithmDijkstra, backend.AlgorithmBellmanFord, backend.AlgorithmCH} {
		for name, shape := range shapes {
			t.Run(alg+"/"+name, func(t *testing.T) {
				req, err := requestFor(e, backend.Algorithm{Name: alg}, sources, true)
				if err != nil {
					t.Fatal(err)
				}
				req.Targets, req.SourceTargets, req.CutoffCells = shape.Targets, shape.SourceTargets, shape.CutoffCells
				if shape.MaxDistance != 0 {
					req.MaxDistance = shape.MaxDistance
				}
				req.Columns = req.Columns.With(results.Metric, true)
				cells, err := runMetric(t, req)
				if err != nil {
					t.Fatal(err)
				}
				if (len(cells) == 0) != (name == "no cells") {
					t.Fatalf("%d cells", len(cells))
				}
				for key, c := range cells {
					s, v := key[0], key[1]
					wd, wm := want[s][0][v], want[s][1][v]
					if req.HasCutoff() && wd != paths.Unreachable && wd > req.MaxDistance {
						wd = paths.Unreachable
					}
					if c.dist != wd || (wd != paths.Unreachable && c.metric != wm) {
						t.Fatalf("%d -> %d: (%d, %d), want (%d, %d)", s, v, c.dist, c.metric, wd, wm)
					}
					if c.parent == paths.NoParent {
						if wd != paths.Unreachable && v != s {
							t.Fatalf("%d -> %d: no parent", s, v)
						}
						continue
					}
					// The parent's own pair and an arc between them that
					// closes both sums.
					p := c.parent
					if p == v {
						t.Fatalf("%d -> %d: the vertex is its own parent", s, v)
					}
					pd, pm := want[s][0][p], want[s][1][p]
					tight := false
					for a := g.Offsets[p]; a < g.Offsets[p+1]; a++ {
						if g.Targets[a] == v && pd+int64(g.Weights[a]) == wd && pm+int64(g.Metric[a]) == wm {
							tight = true
						}
					}
					if !tight {
						t.Fatalf("%d -> %d: parent %d at (%d, %d) closes no arc to (%d, %d)", s, v, p, pd, pm, wd, wm)
					}
				}
			})
		}
	}
}

// TestMetricRefusals checks that a graph without a metric, and an
// algorithm that reports none, refuse a metric request as unsupported,
// and that auto picks one that reports it, even for all pairs.
func TestMetricRefusals(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	e := graphtest.RandomGraph(r, 30, 90, 1, 9, 0)
	for _, alg := range []string{backend.AlgorithmBellmanFord, backend.AlgorithmDijkstra, backend.AlgorithmCH} {
		req, err := requestFor(e, backend.Algorithm{Name: alg}, []int32{0}, false)
		if err != nil {
			t.Fatal(err)
		}
		req.Columns = req.Columns.With(results.Metric, true)
		if _, err := runMetric(t, req); !errors.Is(err, backend.ErrUnsupported) {
			t.Errorf("%s without a metric: %v, want unsupported", alg, err)
		}
	}
	graphtest.WithMetric(r, e, 0, 5)
	for _, alg := range []string{backend.AlgorithmJohnson, backend.AlgorithmFloydWarshall} {
		p := problemOf(e, backend.Algorithm{Name: alg}, []int32{0}, false)
		p.Metric = true
		if _, err := Choose(p); !errors.Is(err, backend.ErrUnsupported) {
			t.Errorf("%s with a metric: %v, want unsupported", alg, err)
		}
	}
	p := problemOf(e, backend.Algorithm{Name: backend.AlgorithmAuto}, allSources(e.N), false)
	p.Metric = true
	if c, err := Choose(p); err != nil || !reportsMetric(c.Algorithm.Name) {
		t.Errorf("auto with a metric chose %+v (%v)", c, err)
	}
}

// TestMetricOnRome checks, on rome99 with a second arc value made for the
// test (the weight's last digit reversed, so that paths tying on the
// weight differ in it), that Dijkstra and ch report from every source the
// weight and metric of the path shortest by (weight, metric), as a
// reference that compares the pairs finds them.
func TestMetricOnRome(t *testing.T) {
	e := readDIMACS(t, "rome99.gr")
	e.Metric = make([]int32, e.M())
	for i, w := range e.Weight {
		e.Metric[i] = 9 - w%10
	}
	g := graph.BuildCSR(e)
	sources := []int32{0, 1000, 2500, 3352}
	for _, alg := range []string{backend.AlgorithmDijkstra, backend.AlgorithmBellmanFord, backend.AlgorithmCH} {
		req, err := requestFor(e, backend.Algorithm{Name: alg}, sources, true)
		if err != nil {
			t.Fatal(err)
		}
		req.Columns = req.Columns.With(results.Metric, true)
		cells, err := runMetric(t, req)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range sources {
			wd, wm := graphtest.Lexicographic(g, s)
			for v := range g.N {
				c := cells[[2]int32{s, v}]
				if c.dist != wd[v] || (wd[v] != paths.Unreachable && c.metric != wm[v]) {
					t.Fatalf("%s %d -> %d: (%d, %d), want (%d, %d)", alg, s, v, c.dist, c.metric, wd[v], wm[v])
				}
			}
		}
	}
}
