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
//
// A batch's WKB buffer, once its batch is written, is handed back
// (spareBuffer) for a later batch to fill: a fresh 64 MiB slice costs
// its zeroing and the collector's work on 1 GB of garbage. The Parquet
// writer copies what it keeps of a batch (a column's statistics), and a
// batch's row group is closed by the time Write returns, so nothing
// refers to the buffer by then.
type writeAhead struct {
	batches chan sentBatch
	spare   chan []byte
	done    chan struct{}
	mu      sync.Mutex
	err     error
}

// sentBatch is a batch on its way to the writer and the WKB buffer its
// geometry column wraps (nil: none to hand back).
type sentBatch struct {
	rec arrow.RecordBatch
	wkb []byte
}

// startWriteAhead starts the goroutine that passes every batch sent to
// write, in order.
func startWriteAhead(write func(arrow.RecordBatch) error) *writeAhead {
	w := &writeAhead{batches: make(chan sentBatch, 1), spare: make(chan []byte, 2), done: make(chan struct{})}
	go func() {
		defer close(w.done)
		for b := range w.batches {
			written := false
			if w.failure() == nil {
				if err := write(b.rec); err != nil {
					w.mu.Lock()
					w.err = err
					w.mu.Unlock()
				} else {
					written = true
				}
			}
			b.rec.Release()
			if written && b.wkb != nil {
				select {
				case w.spare <- b.wkb[:0]:
				default: // two wait already: let the collector have it
				}
			}
		}
	}()
	return w
}

// spareBuffer returns the WKB buffer of a written batch, empty, if one is
// waiting and holds n bytes; nil otherwise.
func (w *writeAhead) spareBuffer(n int) []byte {
	select {
	case b := <-w.spare:
		if cap(b) >= n {
			return b
		}
	default:
	}
	return nil
}

// failure is the first error of write, or nil.
func (w *writeAhead) failure() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// send hands rec to the writer, keeping a reference until it is written,
// and wkb, the buffer its geometry wraps (or nil), which the writer hands
// back once rec is written (spareBuffer): the caller must not touch it
// after. It returns the writer's first error, if there has been one, so
// that the caller stops producing.
func (w *writeAhead) send(rec arrow.RecordBatch, wkb []byte) error {
	if err := w.failure(); err != nil {
		return err
	}
	rec.Retain()
	w.batches <- sentBatch{rec: rec, wkb: wkb}
	return nil
}

// close waits until every batch sent is written and returns the first
// error. It must be called once, after the last send.
func (w *writeAhead) close() error {
	close(w.batches)
	<-w.done
	return w.failure()
}
