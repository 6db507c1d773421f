package generate

import (
	"fmt"
	"math/bits"
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

// stream returns the PCG source for one independent piece of work (a grid
// row, a chunk of vertices), so pieces can run in any order or in parallel
// and still give the same graph. Wrap it in rand.New for anything but
// weights.
func stream(seed, piece uint64) *rand.PCG {
	return rand.NewPCG(seed, piece^0x9e3779b97f4a7c15)
}

// weightDrawer draws weights uniformly from [lo, hi].
type weightDrawer struct {
	lo   int64
	span uint64 // hi - lo + 1, at most 2^32
}

func newWeightDrawer(lo, hi int32) weightDrawer {
	return weightDrawer{lo: int64(lo), span: uint64(int64(hi) - int64(lo) + 1)}
}

// draw takes the PCG itself rather than a rand.Rand: one weight per arc is
// the generators' hot loop, and the concrete type saves an interface call
// per draw.
func (d weightDrawer) draw(src *rand.PCG) int32 {
	if d.span == 1 {
		return int32(d.lo)
	}
	return int32(d.lo + int64(uint64n(src, d.span)))
}

// uint64n returns a uniform draw from [0, n), n > 0: the algorithm and the
// values of rand.New(src).Uint64N(n) on 64-bit platforms (Lemire's
// multiply-and-reject). Unlike math/rand/v2, it takes no other path on
// 32-bit platforms, so the graphs are the same there too.
func uint64n(src *rand.PCG, n uint64) uint64 {
	if n&(n-1) == 0 {
		return src.Uint64() & (n - 1)
	}
	hi, lo := bits.Mul64(src.Uint64(), n)
	if lo < n {
		thresh := -n % n
		for lo < thresh {
			hi, lo = bits.Mul64(src.Uint64(), n)
		}
	}
	return hi
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
