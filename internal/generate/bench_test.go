package generate

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/pathflow/pathflow/internal/graph"
)

// benchProcs runs build once on one thread and once on all of them, so one
// run compares the sequential and the parallel generator.
func benchProcs(b *testing.B, build func() (*graph.EdgeList, error)) {
	for _, procs := range []int{1, runtime.GOMAXPROCS(0)} {
		b.Run(fmt.Sprintf("procs=%d", procs), func(b *testing.B) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			for b.Loop() {
				if _, err := build(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkRandomDegree10Mx7(b *testing.B) {
	benchProcs(b, func() (*graph.EdgeList, error) { return RandomDegree(10_000_000, 7, 1, 1000, 1) })
}

func BenchmarkGrid2000(b *testing.B) {
	benchProcs(b, func() (*graph.EdgeList, error) { return Grid(2000, 1, 1000, 1) })
}

func BenchmarkGrid4900(b *testing.B) {
	benchProcs(b, func() (*graph.EdgeList, error) { return Grid(4900, 1, 1000, 1) })
}

func BenchmarkErdosRenyi2048(b *testing.B) {
	benchProcs(b, func() (*graph.EdgeList, error) { return ErdosRenyi(2048, 0.05, 1, 100, 1) })
}

func BenchmarkRoad1024(b *testing.B) {
	for b.Loop() {
		if _, _, err := Road(1024, 1); err != nil {
			b.Fatal(err)
		}
	}
}
