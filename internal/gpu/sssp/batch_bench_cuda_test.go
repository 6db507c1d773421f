//go:build cuda

package sssp_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/generate"
	"github.com/pathflow/pathflow/internal/gpu"
	"github.com/pathflow/pathflow/internal/gpu/backendtest"
	"github.com/pathflow/pathflow/internal/gpu/device"
	"github.com/pathflow/pathflow/internal/gpu/sssp"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/graph/graphtest"
	"github.com/pathflow/pathflow/internal/results"
)

// BenchmarkSSSPBatch times the batched search on a generated grid
// (BENCH_GRID_SIDE, default 4900: 24M vertices, 96M arcs) in the
// shapes users ask for: an origin-destination table (sources 0..999 to
// the 1,000 vertices from n/2), sources within a cutoff, a million random
// pairs over 1,000 sources, 64 whole rows, and the table at fixed launch
// sizes. Each shape runs once after a warm-up, from the call to the last
// block handed over (copies to the host included, no output written); two
// rows of the table are checked against Dijkstra. Run with
// -bench SSSPBatch -benchtime 1x.
func BenchmarkSSSPBatch(b *testing.B) {
	side := int32(4900)
	if s, err := strconv.Atoi(os.Getenv("BENCH_GRID_SIDE")); err == nil {
		side = int32(s)
	}
	e, err := generate.Grid(side, 1, 1000, 1)
	if err != nil {
		b.Fatal(err)
	}
	g := graph.BuildCSR(e)
	n := g.N
	be := backendtest.Default()
	b.Logf("grid %d: n %d, m %d, device %s, %s", side, n, g.M(), be.Device(), time.Now().Format("2006-01-02"))
	span := func(lo, count int32) []int32 {
		s := make([]int32, count)
		for i := range s {
			s[i] = lo + int32(i)
		}
		return s
	}
	od := min(1000, n/4)
	sources, targets := span(0, od), span(n/2, od)
	r := rand.New(rand.NewPCG(1, 2))
	pairs := make([][]int32, od)
	for i := range pairs {
		pairs[i] = make([]int32, 1000)
		for j := range pairs[i] {
			pairs[i][j] = r.Int32N(n)
		}
	}
	type shape struct {
		name       string
		req        backend.Request
		batch      int
		factor     float64
		stateBytes int64
		rounds     int
	}
	shapes := []shape{
		{name: "od-table", req: backend.Request{Shape: results.Shape{Sources: sources, Targets: targets, MaxDistance: results.NoCutoff}}},
		{name: "od-table-parents", req: backend.Request{Shape: results.Shape{Sources: sources, Targets: targets, MaxDistance: results.NoCutoff, Columns: results.ColumnsOf(results.Parent)}}},
		{name: "cutoff-100000-100-sources", req: backend.Request{Shape: results.Shape{Sources: span(0, 100), MaxDistance: 100000}}},
		{name: "pairs-1M", req: backend.Request{Shape: results.Shape{Sources: sources, SourceTargets: pairs, MaxDistance: results.NoCutoff}}},
		{name: "whole-rows-64", req: backend.Request{Shape: results.Shape{Sources: span(0, 64), MaxDistance: results.NoCutoff}}},
	}
	for _, batch := range []int{1, 8, 64, 256} {
		shapes = append(shapes, shape{name: fmt.Sprintf("od-table-batch-%d", batch), batch: batch,
			req: backend.Request{Shape: results.Shape{Sources: sources[:min(len(sources), max(batch, 64))], Targets: targets, MaxDistance: results.NoCutoff}}})
	}
	for _, factor := range []float64{8, 32, 64, 128} {
		shapes = append(shapes, shape{name: fmt.Sprintf("od-table-64-delta-factor-%g", factor), factor: factor,
			req: backend.Request{Shape: results.Shape{Sources: sources[:64], Targets: targets, MaxDistance: results.NoCutoff}}})
	}
	for _, rounds := range []int{-1, 4} {
		shapes = append(shapes, shape{name: fmt.Sprintf("od-table-64-local-rounds-%d", max(rounds, 0)), rounds: rounds,
			req: backend.Request{Shape: results.Shape{Sources: sources[:64], Targets: targets, MaxDistance: results.NoCutoff}}})
	}
	for _, gib := range []int64{4, 16} {
		shapes = append(shapes, shape{name: fmt.Sprintf("od-table-state-%dGiB", gib), stateBytes: gib << 30,
			req: backend.Request{Shape: results.Shape{Sources: sources, Targets: targets, MaxDistance: results.NoCutoff}}})
	}
	for _, sh := range shapes {
		b.Run(sh.name, func(b *testing.B) {
			req := sh.req
			req.CSR = g
			opts := sssp.Options{Batch: sh.batch, DeltaFactor: sh.factor, BatchStateBytes: sh.stateBytes, LocalRounds: sh.rounds}
			var cells int64
			sink := func(rows *results.Rows) error {
				lo, _ := rows.Span(0)
				_, hi := rows.Span(rows.Len() - 1)
				cells += int64(hi - lo)
				rows.Release()
				return nil
			}
			if _, err := be.SolveBatch(context.Background(), g, &req, opts, sink); err != nil { // warm-up
				b.Fatal(err)
			}
			free0 := deviceFree(b, be)
			for b.Loop() {
				cells = 0
				start := time.Now()
				stats, err := be.SolveBatch(context.Background(), g, &req, opts, sink)
				if err != nil {
					b.Fatal(err)
				}
				wall := time.Since(start)
				b.ReportMetric(wall.Seconds()*1e3, "ms")
				b.ReportMetric(wall.Seconds()*1e3/float64(len(req.Sources)), "ms/source")
				b.ReportMetric(stats.Kernel.Seconds()*1e3, "kernel-ms")
				groups := int64(stats.BatchSize+sssp.BatchLanes-1) / sssp.BatchLanes
				b.Logf("%s: %d sources, %d cells, wall %v, kernel %v, launch rows %d (search state %s), groups stopped %d, steps %d, relaxations %d, stream %v",
					sh.name, len(req.Sources), cells, wall.Round(time.Microsecond), stats.Kernel.Round(time.Microsecond),
					stats.BatchSize, device.FormatBytes(groups*sssp.BatchGroupBytes(int64(n))), stats.Stopped, stats.Steps, stats.Relaxations, stats.Stream)
			}
			b.Logf("%s: device memory free before %s", sh.name, device.FormatBytes(free0))
		})
	}
	b.Run("check-od-rows", func(b *testing.B) {
		req := backend.Request{Shape: results.Shape{Sources: []int32{sources[0], sources[len(sources)-1]}, Targets: targets, MaxDistance: results.NoCutoff, Columns: results.ColumnsOf(results.Parent)}, CSR: g}
		refs := [][]int64{graphtest.Dijkstra(g, req.Sources[0]), graphtest.Dijkstra(g, req.Sources[1])}
		for b.Loop() {
			if err := checkBatch(be, &req, refs, sssp.Options{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// deviceFree is the free device memory of b's device.
func deviceFree(tb testing.TB, b *gpu.Backend) int64 {
	var free int64
	err := b.GPU().Do(func(c *device.Ctx) error {
		var err error
		free, _, err = c.MemInfo()
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
	return free
}
