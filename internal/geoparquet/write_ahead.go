package geoparquet

import (
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
)

// writeAhead writes record batches on a goroutine of its own, so that the
// next batch's WKB is built while the last one is encoded and compressed:
// for 100,000 routes on Delaware (1 GB of WKB) the two take about as long
// as each other. At most two batches wait for it beside the one being
// built (about 200 MB of WKB in all). The first error of write is kept;
// batches after it are dropped.
type writeAhead struct {
	batches chan arrow.RecordBatch
	done    chan struct{}
	mu      sync.Mutex
	err     error
}

// startWriteAhead starts the goroutine that passes every batch sent to
// write, in order.
func startWriteAhead(write func(arrow.RecordBatch) error) *writeAhead {
	w := &writeAhead{batches: make(chan arrow.RecordBatch, 1), done: make(chan struct{})}
	go func() {
		defer close(w.done)
		for rec := range w.batches {
			if w.failure() == nil {
				if err := write(rec); err != nil {
					w.mu.Lock()
					w.err = err
					w.mu.Unlock()
				}
			}
			rec.Release()
		}
	}()
	return w
}

// failure is the first error of write, or nil.
func (w *writeAhead) failure() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// send hands rec to the writer, keeping a reference until it is written;
// it returns the writer's first error, if there has been one, so that the
// caller stops producing.
func (w *writeAhead) send(rec arrow.RecordBatch) error {
	if err := w.failure(); err != nil {
		return err
	}
	rec.Retain()
	w.batches <- rec
	return nil
}

// close waits until every batch sent is written and returns the first
// error. It must be called once, after the last send.
func (w *writeAhead) close() error {
	close(w.batches)
	<-w.done
	return w.failure()
}
