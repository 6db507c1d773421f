package generate

import (
	"math/rand/v2"
	"runtime"

	"github.com/pathflow/pathflow/internal/parallel"
)

// Stream namespaces: each parallel piece of work draws from its own stream,
// and pieces of different kinds never share one.
const (
	labelStreams   = 1 << 40 // permutation: bucket labels of one chunk
	shuffleStreams = 2 << 40 // permutation: the shuffle of one bucket
)

// permChunk is how many elements share one label stream, and the target
// size of a bucket (64 Ki int32s: a quarter of a MiB, cache-resident while
// it is shuffled).
const permChunk = 1 << 16

// randomPermutation returns a uniformly random permutation of 0..n-1 with
// the Rao-Sandelius method: every element draws a random bucket, the
// buckets are filled in element order, then each bucket is shuffled with
// Fisher-Yates. Given the bucket sizes every ordering is equally likely, so
// the result is exactly uniform. Labelling and shuffling run in parallel
// over chunks and buckets, each with its own stream, so the result depends
// only on n and seed. O(n) time, n extra int32s.
func randomPermutation(n int, seed uint64) []int32 {
	out := make([]int32, n)
	if n == 0 {
		return out
	}
	buckets := max(1, n/permChunk)
	chunks := (n + permChunk - 1) / permChunk
	workers := min(runtime.GOMAXPROCS(0), chunks)
	chunkRange := func(c int) (lo, hi int) { return c * permChunk, min((c+1)*permChunk, n) }

	// Count labels per chunk and bucket.
	counts := make([][]int, chunks)
	parallel.For(chunks, workers, func(c int) {
		counts[c] = make([]int, buckets)
		r := rand.New(stream(seed, labelStreams+uint64(c)))
		lo, hi := chunkRange(c)
		for range hi - lo {
			counts[c][r.Uint32N(uint32(buckets))]++
		}
	})
	// Turn counts into each chunk's write position in each bucket.
	bucketStart := parallel.Places(counts, buckets)
	// Scatter: each chunk redraws the same labels from a fresh copy of its
	// stream.
	parallel.For(chunks, workers, func(c int) {
		next := counts[c]
		r := rand.New(stream(seed, labelStreams+uint64(c)))
		lo, hi := chunkRange(c)
		for v := lo; v < hi; v++ {
			b := r.Uint32N(uint32(buckets))
			out[next[b]] = int32(v)
			next[b]++
		}
	})
	parallel.For(buckets, workers, func(b int) {
		r := rand.New(stream(seed, shuffleStreams+uint64(b)))
		part := out[bucketStart[b]:bucketStart[b+1]]
		for i := len(part) - 1; i > 0; i-- {
			j := r.Uint32N(uint32(i + 1))
			part[i], part[j] = part[j], part[i]
		}
	})
	return out
}
