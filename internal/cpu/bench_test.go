package cpu

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/generate"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/internal/shortest"
	"github.com/pathflow/pathflow/internal/shortest/shortesttest"
)

var (
	grid512 = shortesttest.GridFixture(512)
	er2048  = &shortesttest.Fixture[*graph.EdgeList]{Build: func() (*graph.EdgeList, error) {
		return generate.ErdosRenyi(2048, 0.05, 1, 100, 1)
	}}
)

// benchmarkRun runs alg from sources through Backend.Run on every core,
// with a sink that releases each block at once.
func benchmarkRun(b *testing.B, g *graph.CSR, alg string, sources []int32, withParents bool) {
	lo, hi := g.WeightRange()
	choice, err := Choose(backend.Problem{
		N: g.N, M: int64(g.M()), MinWeight: lo, MaxWeight: hi,
		Sources: len(sources), AllSources: len(sources) == int(g.N),
		Algorithm: backend.Algorithm{Name: alg},
	})
	if err != nil {
		b.Fatal(err)
	}
	req := backend.Request{Shape: results.Shape{Sources: sources, Columns: results.ColumnsOf().With(results.Parent, withParents), MaxDistance: results.NoCutoff}, CSR: g, Choice: choice}
	cpu := New(0)
	release := func(rows *results.Rows) error {
		rows.Release()
		return nil
	}
	shortesttest.ReportCPU(b, func() {
		if err := cpu.Run(context.Background(), req, release); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkDijkstraGrid512Sources64 runs 64 searches with parents, spread
// over the 512 x 512 grid.
func BenchmarkDijkstraGrid512Sources64(b *testing.B) {
	g := grid512.Get(b)
	sources := make([]int32, 64)
	for i := range sources {
		sources[i] = int32(i) * (g.N / 64)
	}
	benchmarkRun(b, g, backend.AlgorithmDijkstra, sources, true)
}

// BenchmarkJohnsonGnutella04 computes every row of p2p-Gnutella04 (10,879
// vertices, weights 1..100 by the dataset rule), distances only: Johnson
// without negative weights is Dijkstra from every source.
func BenchmarkJohnsonGnutella04(b *testing.B) {
	e := readSNAP(b, "p2p-Gnutella04.txt", 1, 100)
	benchmarkRun(b, graph.BuildCSR(e), backend.AlgorithmJohnson, allSources(e.N), false)
}

// BenchmarkJohnsonGnutella04Negative is the same graph with random vertex
// potentials making many weights negative (no negative cycle): Johnson's
// Bellman-Ford and reweighting come first.
func BenchmarkJohnsonGnutella04Negative(b *testing.B) {
	e := readSNAP(b, "p2p-Gnutella04.txt", 1, 100)
	neg := shortesttest.Reweighted(rand.New(rand.NewPCG(1, 2)), e, 50)
	benchmarkRun(b, graph.BuildCSR(neg), backend.AlgorithmJohnson, allSources(e.N), false)
}

func benchmarkFloydWarshall(b *testing.B, withParents bool) {
	e := er2048.Get(b)
	shortesttest.ReportCPU(b, func() {
		if _, err := shortest.BlockedFloydWarshall(context.Background(), e, 0, 0, withParents); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkFloydWarshallER2048 is the blocked Floyd-Warshall on an
// Erdős–Rényi graph, n = 2048, p = 0.05, weights 1..100, on every core.
func BenchmarkFloydWarshallER2048(b *testing.B) { benchmarkFloydWarshall(b, false) }

// BenchmarkFloydWarshallER2048Parents adds the predecessor matrix.
func BenchmarkFloydWarshallER2048Parents(b *testing.B) { benchmarkFloydWarshall(b, true) }

// odTable is a block of the origin-destination table scripts/bench-od-table.sh
// times: sources 0..count-1 (rows 0 and 1 of the 512 x 512 grid) and the
// 1,000 targets 131072..132071 (rows 256 and 257).
func odTable(count int) (sources, targets []int32) {
	sources = make([]int32, count)
	for i := range sources {
		sources[i] = int32(i)
	}
	targets = make([]int32, 1000)
	for j := range targets {
		targets[j] = int32(131072 + j)
	}
	return sources, targets
}

// BenchmarkODTableGrid512 runs 100 rows of the table through Run, with
// parents, narrowed to the targets (each search stopped at its last
// target) and as full rows (no stop), and reports the share of the grid
// one stopped search reaches.
func BenchmarkODTableGrid512(b *testing.B) {
	g := grid512.Get(b)
	sources, targets := odTable(100)
	touched, err := shortest.DijkstraReach(context.Background(), g, 0, targets)
	if err != nil {
		b.Fatal(err)
	}
	reached := float64(touched) / float64(g.N)
	for _, narrowed := range []bool{true, false} {
		name := "targets"
		if !narrowed {
			name = "full-rows"
		}
		b.Run(name, func(b *testing.B) {
			req := backend.Request{Shape: results.Shape{Sources: sources, Columns: results.ColumnsOf(results.Parent), MaxDistance: results.NoCutoff}, CSR: g,
				Choice: backend.Choice{Algorithm: backend.Algorithm{Name: backend.AlgorithmDijkstra}, Int64: true}}
			if narrowed {
				req.Targets = targets
			}
			be := New(2)
			shortesttest.ReportCPU(b, func() {
				if err := be.Run(context.Background(), req, func(rows *results.Rows) error { rows.Release(); return nil }); err != nil {
					b.Fatal(err)
				}
			})
			if narrowed {
				b.ReportMetric(reached, "reached-share")
			}
		})
	}
}
