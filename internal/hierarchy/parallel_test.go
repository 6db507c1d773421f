package hierarchy

import (
	"sync"
	"testing"
)

// TestForOwnedCoversOnce checks that forOwned hands every item to exactly
// one call, on any number of workers; with more than one, in runs of one
// owner and at most chunk items.
func TestForOwnedCoversOnce(t *testing.T) {
	items := make([]int32, 10000)
	for i := range items {
		items[i] = int32(i * 7 % 5000) // owners change often and repeat
	}
	owner := func(x int32) int { return int(x >> 6) }
	for _, workers := range []int{1, 2, 3, 8} {
		for _, chunk := range []int{1, 16, 1024} {
			var mu sync.Mutex
			calls := make([]int, len(items))
			forOwned(items, workers, chunk, owner, func(w, lo, hi int) {
				if w < 0 || w >= workers {
					t.Errorf("worker %d of %d", w, workers)
				}
				if hi <= lo || (workers > 1 && hi-lo > chunk) {
					t.Errorf("run [%d, %d) with chunk %d", lo, hi, chunk)
				}
				for i := lo; i < hi; i++ {
					if workers > 1 && owner(items[i])%workers != owner(items[lo])%workers {
						t.Errorf("run [%d, %d) mixes owners", lo, hi)
					}
				}
				mu.Lock()
				for i := lo; i < hi; i++ {
					calls[i]++
				}
				mu.Unlock()
			})
			for i, c := range calls {
				if c != 1 {
					t.Fatalf("workers %d, chunk %d: item %d handed out %d times", workers, chunk, i, c)
				}
			}
		}
	}
}
