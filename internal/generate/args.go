package generate

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
)

// checkWeights rejects an empty weight range.
func checkWeights(lo, hi int32) error {
	if lo > hi {
		return fmt.Errorf("generate: weight range [%d, %d] is empty (lo > hi)", lo, hi)
	}
	return nil
}

// checkVertices rejects a negative vertex count.
func checkVertices(n int32) error {
	if n < 0 {
		return fmt.Errorf("generate: negative vertex count %d", n)
	}
	return nil
}

// stream returns the PCG generator for one independent piece of work
// (a grid row, a chunk of vertices), so pieces can run in any order or in
// parallel and still give the same graph.
func stream(seed, piece uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, piece^0x9e3779b97f4a7c15))
}

// weightDrawer draws weights uniformly from [lo, hi].
type weightDrawer struct {
	lo   int64
	span uint64 // hi - lo + 1, at most 2^32
}

func newWeightDrawer(lo, hi int32) weightDrawer {
	return weightDrawer{lo: int64(lo), span: uint64(int64(hi) - int64(lo) + 1)}
}

func (d weightDrawer) draw(r *rand.Rand) int32 {
	if d.span == 1 {
		return int32(d.lo)
	}
	return int32(d.lo + int64(r.Uint64N(d.span)))
}

// parallelRanges splits 0..n-1 into one contiguous range per worker and
// runs body on each; for work whose result does not depend on the split.
func parallelRanges(n int, body func(lo, hi int)) {
	workers := max(1, min(runtime.GOMAXPROCS(0), n))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() { body(n*w/workers, n*(w+1)/workers) })
	}
	wg.Wait()
}
