package graph_test

import (
	"fmt"
	"runtime"
	"sync"
	"testing"

	"github.com/pathflow/pathflow/internal/generate"
	"github.com/pathflow/pathflow/internal/graph"
)

// benchSides are the benchmark grids: 2,000 (4.0 M vertices, 16.0 M arcs)
// and 4,900 (24.0 M vertices, 96.0 M arcs, the largest run in
// docs/performance.md). Pick one with -bench '/side=2000'.
var benchSides = []int32{2000, 4900}

// benchGrids builds each benchmark grid and its CSR once per process.
var benchGrids = map[int32]func() (*graph.EdgeList, *graph.CSR){}

func init() {
	for _, side := range benchSides {
		benchGrids[side] = sync.OnceValues(func() (*graph.EdgeList, *graph.CSR) {
			e, err := generate.Grid(side, 1, 1000, 1)
			if err != nil {
				panic(err)
			}
			return e, graph.BuildCSR(e)
		})
	}
}

// benchOnGrids runs f on every benchmark grid, once on one thread (the
// sequential sort) and once on all of them, so one run compares the two
// paths.
func benchOnGrids(b *testing.B, f func(e *graph.EdgeList, c *graph.CSR)) {
	for _, side := range benchSides {
		for _, procs := range []int{1, runtime.GOMAXPROCS(0)} {
			b.Run(fmt.Sprintf("side=%d/procs=%d", side, procs), func(b *testing.B) {
				e, c := benchGrids[side]()
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
				for b.Loop() {
					f(e, c)
				}
			})
		}
	}
}

// BuildCSR of a generated grid takes the shortcut for input sorted by
// source.
func BenchmarkBuildCSR(b *testing.B) {
	benchOnGrids(b, func(e *graph.EdgeList, _ *graph.CSR) { graph.BuildCSR(e) })
}

func BenchmarkBuildReverseCSR(b *testing.B) {
	benchOnGrids(b, func(e *graph.EdgeList, _ *graph.CSR) { graph.BuildReverseCSR(e) })
}

func BenchmarkReverse(b *testing.B) {
	benchOnGrids(b, func(_ *graph.EdgeList, c *graph.CSR) { c.Reverse() })
}
