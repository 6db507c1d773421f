package gputest

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
)

// DijkstraMatrix returns the all-pairs distances of g (non-negative
// weights) as an int32 matrix with graph.Inf32 for "no path", running
// Dijkstra from every source on all cores. The distances must fit int32
// (graph.FitsInt32Distances).
func DijkstraMatrix(g *graph.CSR) *paths.Matrix {
	n := int64(g.N)
	m := &paths.Matrix{N: g.N, Dist32: make([]int32, n*n)}
	forEachSource(g.N, func(s int32) error {
		row := m.Dist32[int64(s)*n : int64(s+1)*n]
		for v, d := range Dijkstra(g, s) {
			if d == paths.Unreachable {
				row[v] = graph.Inf32
			} else {
				row[v] = int32(d)
			}
		}
		return nil
	})
	return m
}

// CheckRows runs CheckRow on every row of m, on all cores, and returns one
// of the errors found.
func CheckRows(g *graph.CSR, m *paths.Matrix) error {
	return forEachSource(m.N, func(s int32) error { return CheckRow(g, m, s) })
}

// forEachSource calls fn for 0..n-1 on GOMAXPROCS goroutines and returns
// the first error; it stops handing out sources once one failed.
func forEachSource(n int32, fn func(s int32) error) error {
	var (
		next   atomic.Int32
		failed atomic.Bool
		once   sync.Once
		first  error
		wg     sync.WaitGroup
	)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !failed.Load() {
				s := next.Add(1) - 1
				if s >= n {
					return
				}
				if err := fn(s); err != nil {
					once.Do(func() { first = err })
					failed.Store(true)
				}
			}
		}()
	}
	wg.Wait()
	return first
}
