package shortest

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
)

// forEach runs work(i) for i = 0..count-1 on up to workers goroutines, in
// no particular order, each goroutine with its own work function from
// newWorker. The first error stops the others from starting new indices;
// forEach returns it after every goroutine has ended.
func forEach(ctx context.Context, count, workers int, newWorker func() func(i int) error) error {
	if count == 0 {
		return nil
	}
	workers = max(1, min(workers, count))
	var next atomic.Int64
	var failed atomic.Bool
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			work := newWorker()
			for !failed.Load() {
				i := int(next.Add(1) - 1)
				if i >= count {
					return
				}
				err := ctx.Err()
				if err != nil {
					err = fmt.Errorf("cpu: %w", err)
				} else {
					err = work(i)
				}
				if err != nil {
					errs[w] = err
					failed.Store(true)
					return
				}
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
