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
	work := func(w int) {
		for {
			lo := int(next.Add(int64(chunk))) - chunk
			if lo >= count {
				return
			}
			body(w, lo, min(count, lo+chunk))
		}
	}
	onWorkers(workers, work)
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
	onWorkers(workers, func(w int) { body(w, count*w/workers, count*(w+1)/workers) })
}

// forOwned runs body(worker, lo, hi) over the items, whose owner (in
// 0..workers-1) says which worker's cache most likely holds what the item
// touches: the items are cut into runs of at most chunk consecutive items
// of one owner, and each worker takes its own runs first, on demand, and
// then helps with the others'. Equal-owner items should lie together (the
// contraction's lists do) for the runs to be long. O(len(items)) scheduling
// on top of the calls.
func forOwned(items []int32, workers, chunk int, owner func(int32) int, body func(worker, lo, hi int)) {
	if len(items) == 0 {
		return
	}
	// The last rounds of a contraction hand out a few dozen items, each
	// costing more than the thousands of the first ones (the vertices
	// left have more neighbours): runs of chunk items would leave a
	// worker idle while another finishes a long run. Shorter runs give
	// each worker at least minRunsPerWorker of them where there are enough
	// items.
	chunk = max(1, min(chunk, len(items)/(minRunsPerWorker*workers)))
	workers = max(1, min(workers, (len(items)+chunk-1)/chunk))
	if workers == 1 {
		body(0, 0, len(items))
		return
	}
	type run struct{ lo, hi int }
	queues := make([][]run, workers)
	for lo := 0; lo < len(items); {
		o := owner(items[lo]) % workers
		hi := lo + 1
		for hi < len(items) && hi-lo < chunk && owner(items[hi])%workers == o {
			hi++
		}
		queues[o] = append(queues[o], run{lo, hi})
		lo = hi
	}
	// One cursor per queue, each on cache lines of its own: the workers
	// advance them all the time.
	next := make([]paddedCounter, workers)
	onWorkers(workers, func(w int) {
		for k := range workers {
			q := (w + k) % workers
			for {
				i := int(next[q].n.Add(1)) - 1
				if i >= len(queues[q]) {
					break
				}
				body(w, queues[q][i].lo, queues[q][i].hi)
			}
		}
	})
}

// onWorkers runs work(0) .. work(workers-1) at once and returns when all
// are done. The calling goroutine is worker 0, so that a build's hundreds
// of parallel steps each start one goroutine fewer and the caller does not
// sleep while a fresh one gets its processor. O(workers) on top of the
// calls.
func onWorkers(workers int, work func(w int)) {
	var wg sync.WaitGroup
	for w := 1; w < workers; w++ {
		wg.Go(func() { work(w) })
	}
	work(0)
	wg.Wait()
}

// minRunsPerWorker is how many runs forOwned cuts per worker, at least,
// where the items allow.
const minRunsPerWorker = 8

// paddedCounter is an atomic counter alone on its pair of cache lines.
type paddedCounter struct {
	n atomic.Int64
	_ [2*cacheLine - 8]byte
}
