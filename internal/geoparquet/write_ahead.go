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
// A batch's WKB buffer and list values (batchMemory), once its batch is
// written, are handed back (spareMemory) for a later batch to fill: a
// fresh 64 MiB slice costs its zeroing, or its pages' first faults, and
// the collector's work on 1 GB of garbage. The Parquet writer copies
// what it keeps of a batch (a column's statistics), and a batch's row
// group is closed by the time Write returns, so nothing refers to the
// memory by then.
type writeAhead struct {
	batches chan sentBatch
	spare   chan batchMemory
	done    chan struct{}
	mu      sync.Mutex
	err     error
}

// sentBatch is a batch on its way to the writer and the memory its
// columns wrap that a later batch may fill again.
type sentBatch struct {
	rec arrow.RecordBatch
	mem batchMemory
}

// batchMemory is what a batch's columns wrap that Rows fills in place: the
// WKB of its geometry, and the values of its lists of int32
// (Rows.AppendInt32List) by leading column, nil where a column has none.
type batchMemory struct {
	wkb   []byte
	lists [][]int32
}

// empty returns the memory with every slice emptied, its capacity kept.
func (m batchMemory) empty() batchMemory {
	lists := make([][]int32, len(m.lists))
	for i, l := range m.lists {
		lists[i] = l[:0]
	}
	return batchMemory{wkb: m.wkb[:0], lists: lists}
}

// startWriteAhead starts the goroutine that passes every batch sent to
// write, in order.
func startWriteAhead(write func(arrow.RecordBatch) error) *writeAhead {
	w := &writeAhead{batches: make(chan sentBatch, 1), spare: make(chan batchMemory, 2), done: make(chan struct{})}
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
			if written && (b.mem.wkb != nil || b.mem.lists != nil) {
				select {
				case w.spare <- b.mem.empty():
				default: // two wait already: let the collector have it
				}
			}
		}
	}()
	return w
}

// spareMemory returns the memory of a written batch, every slice empty,
// if one is waiting; the zero batchMemory otherwise.
func (w *writeAhead) spareMemory() batchMemory {
	select {
	case m := <-w.spare:
		return m
	default:
		return batchMemory{}
	}
}

// failure is the first error of write, or nil.
func (w *writeAhead) failure() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// send hands rec to the writer, keeping a reference until it is written,
// and mem, the memory its columns wrap (or none), which the writer hands
// back once rec is written (spareMemory): the caller must not touch it
// after. It returns the writer's first error, if there has been one, so
// that the caller stops producing.
func (w *writeAhead) send(rec arrow.RecordBatch, mem batchMemory) error {
	if err := w.failure(); err != nil {
		return err
	}
	rec.Retain()
	w.batches <- sentBatch{rec: rec, mem: mem}
	return nil
}

// close waits until every batch sent is written and returns the first
// error. It must be called once, after the last send.
func (w *writeAhead) close() error {
	close(w.batches)
	<-w.done
	return w.failure()
}
