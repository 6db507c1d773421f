package parallel

import (
	"runtime"
	"sync"
)

// Workers resolves a requested worker count: requested <= 0 means one
// per usable CPU, runtime.GOMAXPROCS(0).
func Workers(requested int) int {
	if requested <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return requested
}

// For runs body(i) for every i in 0..count-1 on up to workers goroutines,
// goroutine w taking w, w+workers, w+2*workers, ..., and returns when every
// call has. The calls must not depend on one another.
func For(count, workers int, body func(i int)) {
	workers = min(workers, count)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; i < count; i += workers {
				body(i)
			}
		})
	}
	wg.Wait()
}

// Places turns counts[c][b], how many items chunk c sends to bucket b,
// into the place of chunk c's first item in bucket b, for a scatter that
// lays out the buckets in order and, within a bucket, the chunks in order:
// each chunk then writes its items of a bucket from there on, in its own
// order, and the result is that of one sequential stable pass. It
// overwrites counts and returns where each of the buckets starts, followed
// by the total. O(chunks * buckets).
func Places(counts [][]int, buckets int) []int {
	start := make([]int, buckets+1)
	at := 0
	for b := range buckets {
		start[b] = at
		for c := range counts {
			count := counts[c][b]
			counts[c][b] = at
			at += count
		}
	}
	start[buckets] = at
	return start
}

// Chunks splits 0..n-1 into up to workers consecutive chunks of at least
// minChunk (one chunk when n is smaller) and runs body(w, lo, hi) for chunk
// w, lo..hi-1, chunks in order of w, each on its own goroutine, and returns
// when every call has. w < workers, so per-chunk results fit in slices of
// workers entries; a chunk may be empty at the end.
func Chunks(n, workers, minChunk int, body func(w, lo, hi int)) {
	chunks := max(1, min(workers, n/max(minChunk, 1)))
	if chunks == 1 {
		body(0, 0, n)
		return
	}
	size := (n + chunks - 1) / chunks
	For(chunks, chunks, func(w int) { body(w, min(w*size, n), min((w+1)*size, n)) })
}
