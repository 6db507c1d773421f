package sssp

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
)

// The devices of one request compute a shared value once, however many
// ask at once, and all of them get it, or its error.
func TestSharedComputesOnce(t *testing.T) {
	for _, fail := range []error{nil, errors.New("no plan")} {
		var s shared[int]
		var calls atomic.Int32
		var wg sync.WaitGroup
		got := make([]int, 8)
		errs := make([]error, 8)
		for i := range got {
			wg.Go(func() {
				got[i], errs[i] = s.get(func() (int, error) {
					calls.Add(1)
					return 42, fail
				})
			})
		}
		wg.Wait()
		if calls.Load() != 1 {
			t.Fatalf("computed %d times, want once", calls.Load())
		}
		for i := range got {
			if got[i] != 42 || !errors.Is(errs[i], fail) || (fail == nil) != (errs[i] == nil) {
				t.Fatalf("caller %d got %d, %v; want 42, %v", i, got[i], errs[i], fail)
			}
		}
	}
}
