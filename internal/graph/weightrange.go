package graph

import (
	"runtime"
	"slices"

	"github.com/pathflow/pathflow/internal/parallel"
)

// parallelMinWeights is the arc count from which weightRange scans on
// every core. Planners, backends and checks each ask for the range of the
// same large graph (a one-source run on 96M arcs asks four times or more),
// and one core scans at about 1 ns per arc.
const parallelMinWeights = 1 << 20

// weightRange returns the smallest and largest of ws, both 0 when ws is
// empty: one pass, split among GOMAXPROCS goroutines for large arrays.
func weightRange(ws []int32) (lo, hi int32) {
	if len(ws) == 0 {
		return 0, 0
	}
	workers := runtime.GOMAXPROCS(0)
	// An empty tail chunk keeps the first weight, a value of the array.
	los, his := slices.Repeat([]int32{ws[0]}, workers), slices.Repeat([]int32{ws[0]}, workers)
	parallel.Chunks(len(ws), workers, parallelMinWeights, func(w, a, b int) {
		if a < b {
			los[w], his[w] = rangeOf(ws[a:b])
		}
	})
	lo, _ = rangeOf(los)
	_, hi = rangeOf(his)
	return lo, hi
}

// rangeOf is the sequential scan of weightRange over a non-empty slice.
func rangeOf(ws []int32) (lo, hi int32) {
	lo, hi = ws[0], ws[0]
	for _, w := range ws[1:] {
		lo = min(lo, w)
		hi = max(hi, w)
	}
	return lo, hi
}

// weightSum returns the sum of ws, exactly, in one pass split among
// GOMAXPROCS goroutines for large arrays.
func weightSum(ws []int32) int64 {
	workers := runtime.GOMAXPROCS(0)
	sums := make([]int64, workers)
	parallel.Chunks(len(ws), workers, parallelMinWeights, func(w, lo, hi int) {
		var s int64
		for _, x := range ws[lo:hi] {
			s += int64(x)
		}
		sums[w] = s
	})
	var total int64
	for _, s := range sums {
		total += s
	}
	return total
}
