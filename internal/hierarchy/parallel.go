package hierarchy

import (
	"sync"
	"sync/atomic"
)

// forChunks runs body(worker, lo, hi) over 0..count-1 in chunks of chunk
// items handed out on demand to workers goroutines, for work whose items
// cost unevenly; worker says whose scratch space to use. O(count / chunk)
// scheduling on top of the calls.
func forChunks(count, workers, chunk int, body func(worker, lo, hi int)) {
	if count == 0 {
		return
	}
	workers = max(1, min(workers, (count+chunk-1)/chunk))
	if workers == 1 {
		body(0, 0, count)
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for {
				lo := int(next.Add(int64(chunk))) - chunk
				if lo >= count {
					return
				}
				body(w, lo, min(count, lo+chunk))
			}
		})
	}
	wg.Wait()
}

// forRanges runs body(worker, lo, hi) on one contiguous range of
// 0..count-1 per worker, in order, for results that are concatenated in
// worker order. O(workers) scheduling on top of the calls.
func forRanges(count, workers int, body func(worker, lo, hi int)) {
	workers = max(1, min(workers, count))
	if workers == 1 {
		body(0, 0, count)
		return
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() { body(w, count*w/workers, count*(w+1)/workers) })
	}
	wg.Wait()
}
