//go:build cuda

package sssp_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/generate"
	"github.com/pathflow/pathflow/internal/gpu/backendtest"
	"github.com/pathflow/pathflow/internal/gpu/sssp"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/graph/graphtest"
	"github.com/pathflow/pathflow/internal/results"
)

// nearFarAlgorithm is the batched near-far run of the metric tests.
var nearFarAlgorithm = backend.Algorithm{Name: sssp.SSSPFamily, Variant: sssp.VariantNearFar}

// TestNearFarMetricMatchesCPU checks the batched near-far search's metric
// against the CPU backend and the lexicographic reference, in every shape
// with and without parents: on random graphs whose weights (0..3) tie
// often and whose metrics (1..30) break the ties; on one whose metrics
// (0..2) leave arcs of weight and metric 0, whose parents are found on
// the host; with one source (which the metric sends to the batched
// search too); on a road-like graph with more sources than one group
// holds; and on rome99 with a second arc value made for the test.
func TestNearFarMetricMatchesCPU(t *testing.T) {
	seed := backendtest.FreshSeed(t)
	r := rand.New(rand.NewPCG(seed, 37))
	for i := range 3 {
		lo, hi := int32(1), int32(30)
		if i == 2 {
			lo, hi = 0, 2
		}
		e := graphtest.WithMetric(r, graphtest.RandomGraph(r, 150, 700, 0, 3, 0), lo, hi)
		checkMetricAgainstCPU(t, fmt.Sprintf("random %d/seed %d", i, seed), nearFarAlgorithm, e, nil, []int32{0, 3, 7, 50, 149, 77, 12}, r)
	}
	e := graphtest.WithMetric(r, graphtest.RandomGraph(r, 200, 900, 0, 5, 0), 0, 9)
	checkMetricAgainstCPU(t, fmt.Sprintf("one source/seed %d", seed), nearFarAlgorithm, e, nil, []int32{int32(r.IntN(200))}, r)
	road, _, err := generate.Road(40, seed)
	if err != nil {
		t.Fatal(err)
	}
	graphtest.WithMetric(r, road, 1, 50)
	checkMetricAgainstCPU(t, "road 40", nearFarAlgorithm, road, nil, ssspPickSources(r, road.N, 40), r)
	if e, ok := romeWithMetric(t); ok {
		checkMetricAgainstCPU(t, "rome99", nearFarAlgorithm, e, nil, []int32{0, 1000, 2500, 3352, 17, 1234}, r)
	}
}

// TestNearFarMetricAutoAndOverflow: auto with a metric takes the near-far
// search on the GPU and answers; a metric sum past what an int32 lane
// holds (three arcs of metric 2^31 - 1 in a row) is refused as needing
// int64, not reported clamped.
func TestNearFarMetricAutoAndOverflow(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	e := graphtest.WithMetric(r, graphtest.RandomGraph(r, 60, 240, 1, 9, 0), 0, 5)
	req, err := backendtest.Request(t, e, backend.Algorithm{Name: backend.AlgorithmAuto}, []int32{0, 5}, true)
	if err != nil {
		t.Fatal(err)
	}
	if req.Choice.Algorithm.Variant != sssp.VariantNearFar {
		t.Fatalf("auto picked %+v", req.Choice.Algorithm)
	}
	req.Columns = req.Columns.With(results.Metric, true)
	if cells, err := metricCells(backendtest.Default().Run, req); err != nil || len(cells) != 2*int(e.N) {
		t.Fatalf("auto with a metric: %d cells, %v", len(cells), err)
	}

	chain := &graph.EdgeList{N: 4, Src: []int32{0, 1, 2}, Dst: []int32{1, 2, 3}, Weight: []int32{1, 1, 1},
		Metric: []int32{math.MaxInt32, math.MaxInt32, math.MaxInt32}}
	req, err = backendtest.Request(t, chain, nearFarAlgorithm, []int32{0}, false)
	if err != nil {
		t.Fatal(err)
	}
	req.Columns = req.Columns.With(results.Metric, true)
	if _, err := metricCells(backendtest.Default().Run, req); !errors.Is(err, backend.ErrNeedsInt64) {
		t.Errorf("a metric sum of 3 * (2^31 - 1): %v, want needs int64", err)
	}
}

// BenchmarkNearFarMetric times the batched near-far search with and
// without the metric on a generated grid (BENCH_GRID_SIDE, default 1000:
// 1M vertices; weights 1..1000, metrics 1..1000): a 1,000 x 1,000
// origin-destination table without and with parents, each shape plain
// and with the metric, after a warm-up, from the call to the last block
// handed over. Run with -bench NearFarMetric -benchtime 3x.
func BenchmarkNearFarMetric(b *testing.B) {
	side := int32(1000)
	if s, err := strconv.Atoi(os.Getenv("BENCH_GRID_SIDE")); err == nil {
		side = int32(s)
	}
	e, err := generate.Grid(side, 1, 1000, 1)
	if err != nil {
		b.Fatal(err)
	}
	graphtest.WithMetric(rand.New(rand.NewPCG(3, 4)), e, 1, 1000)
	g := graph.BuildCSR(e)
	n := g.N
	sources, targets := make([]int32, 1000), make([]int32, 1000)
	for i := range sources {
		sources[i], targets[i] = int32(i), n/2+int32(i)
	}
	be := backendtest.Default()
	b.Logf("grid %d: n %d, m %d, device %s, %s", side, n, g.M(), be.Device(), time.Now().Format("2006-01-02"))
	for _, parents := range []bool{false, true} {
		for _, metric := range []bool{false, true} {
			b.Run(fmt.Sprintf("od-table/parents=%v/metric=%v", parents, metric), func(b *testing.B) {
				req := backend.Request{Shape: results.Shape{Sources: sources, Targets: targets, MaxDistance: results.NoCutoff,
					Columns: results.ColumnsOf().With(results.Parent, parents).With(results.Metric, metric)}, CSR: g}
				sink := func(rows *results.Rows) error {
					if metric && !rows.Has(results.Metric) {
						return fmt.Errorf("block at row %d holds no metric", rows.First)
					}
					rows.Release()
					return nil
				}
				if _, err := be.SolveBatch(context.Background(), g, &req, sssp.Options{}, sink); err != nil { // warm-up
					b.Fatal(err)
				}
				for b.Loop() {
					start := time.Now()
					stats, err := be.SolveBatch(context.Background(), g, &req, sssp.Options{}, sink)
					if err != nil {
						b.Fatal(err)
					}
					b.ReportMetric(time.Since(start).Seconds()*1e3, "ms")
					b.ReportMetric(stats.Kernel.Seconds()*1e3, "kernel-ms")
					b.Logf("launch rows %d, steps %d, relaxations %d", stats.BatchSize, stats.Steps, stats.Relaxations)
				}
			})
		}
	}
}
