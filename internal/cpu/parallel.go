package cpu

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
)

// inOrder runs work(i) for i = 0..count-1 on up to workers goroutines and
// hands each result to emit on the caller's goroutine, in index order.
// Every goroutine gets its own work function from newWorker (its own
// scratch buffers). At most 2*workers results exist at a time: a worker
// takes index i only once result i-2*workers has been emitted, which
// bounds memory however slow emit is. The first error (from work, emit or
// ctx) stops everything; inOrder returns after every goroutine has ended.
func inOrder[T any](ctx context.Context, count, workers int, newWorker func() func(ctx context.Context, i int) (T, error), emit func(T) error) error {
	if count == 0 {
		return nil
	}
	workers = max(1, min(workers, count))
	window := 2 * workers
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	type result struct {
		value T
		err   error
	}
	// Result i goes to slot i % window, which result i-window has left by
	// the time index i is handed out, so a send never blocks.
	slots := make([]chan result, window)
	for i := range slots {
		slots[i] = make(chan result, 1)
	}
	credits := make(chan struct{}, window)
	for range window {
		credits <- struct{}{}
	}
	jobs := make(chan int)
	var wg sync.WaitGroup
	wg.Go(func() {
		defer close(jobs)
		for i := range count {
			select {
			case <-credits:
			case <-ctx.Done():
				return
			}
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	})
	for range workers {
		work := newWorker()
		wg.Go(func() {
			for i := range jobs {
				value, err := work(ctx, i)
				slots[i%window] <- result{value, err}
			}
		})
	}

	var err error
	for i := 0; i < count && err == nil; i++ {
		select {
		case r := <-slots[i%window]:
			if err = r.err; err == nil {
				err = emit(r.value)
				credits <- struct{}{}
			}
		case <-ctx.Done():
			err = fmt.Errorf("cpu: %w", ctx.Err())
		}
	}
	cancel()
	wg.Wait()
	return err
}

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
