package tables

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkDeltaBlocks encodes 2^20 int32 values of small random steps
// block by block; ns/op over 2^20 is the cost a value.
func BenchmarkDeltaBlocks(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	vals := make([]int32, 1<<20+1)
	for i := 1; i < len(vals); i++ {
		vals[i] = vals[i-1] + rng.Int32N(1000) - 100
	}
	var dst []byte
	b.SetBytes(4 << 20)
	for b.Loop() {
		dst = dst[:0]
		for i := 0; i+deltaBlockValues < len(vals); i += deltaBlockValues {
			dst, _, _ = appendDeltaBlock(dst, vals[i:i+deltaBlockValues+1])
		}
	}
}
