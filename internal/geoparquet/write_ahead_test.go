package geoparquet

import (
	"errors"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestWriteAheadKeepsOrderAndTheFirstError: batches reach the writer in
// the order sent; after the writer fails, send returns its error, later
// batches are dropped, close returns it, and every batch is released.
func TestWriteAheadKeepsOrderAndTheFirstError(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	schema := arrow.NewSchema([]arrow.Field{{Name: "k", Type: arrow.PrimitiveTypes.Int64}}, nil)
	batch := func(k int64) arrow.RecordBatch {
		b := array.NewInt64Builder(mem)
		defer b.Release()
		b.Append(k)
		col := b.NewArray()
		defer col.Release()
		return array.NewRecordBatch(schema, []arrow.Array{col}, 1)
	}
	boom := errors.New("disk full")
	var seen []int64
	w := startWriteAhead(func(rec arrow.RecordBatch) error {
		k := rec.Column(0).(*array.Int64).Value(0)
		seen = append(seen, k)
		if k == 3 {
			return boom
		}
		return nil
	})
	var sendErr error
	for k := range int64(20) {
		rec := batch(k)
		if err := w.send(rec, nil); err != nil && sendErr == nil {
			sendErr = err
		}
		rec.Release()
	}
	if err := w.close(); !errors.Is(err, boom) {
		t.Fatalf("close: %v, want %v", err, boom)
	}
	if !errors.Is(sendErr, boom) {
		t.Errorf("send never reported the writer's error (got %v)", sendErr)
	}
	for i, k := range seen {
		if k != int64(i) {
			t.Fatalf("the writer saw batches %v: out of order", seen)
		}
	}
	if len(seen) != 4 {
		t.Errorf("the writer saw %d batches, want 4 (none after the failure)", len(seen))
	}
}

// TestWriteAheadHandsBackWrittenBuffers: a batch's WKB buffer comes back
// from spareBuffer only once its batch is written, empty and with its
// capacity, and never when it is too small or its batch failed.
func TestWriteAheadHandsBackWrittenBuffers(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{{Name: "k", Type: arrow.PrimitiveTypes.Int64}}, nil)
	b := array.NewInt64Builder(memory.DefaultAllocator)
	defer b.Release()
	b.Append(1)
	col := b.NewArray()
	defer col.Release()
	rec := array.NewRecordBatch(schema, []arrow.Array{col}, 1)
	defer rec.Release()

	release, fail := make(chan struct{}), false
	w := startWriteAhead(func(arrow.RecordBatch) error {
		<-release
		if fail {
			return errors.New("disk full")
		}
		return nil
	})
	wkb := make([]byte, 10, 100)
	if err := w.send(rec, wkb); err != nil {
		t.Fatal(err)
	}
	if got := w.spareBuffer(1); got != nil {
		t.Fatal("a buffer came back before its batch was written")
	}
	release <- struct{}{}
	var got []byte
	for range 1000 {
		if got = w.spareBuffer(100); got != nil {
			break
		}
		time.Sleep(time.Millisecond)
	}
	if len(got) != 0 || cap(got) != 100 || &got[:1][0] != &wkb[0] {
		t.Fatalf("spare buffer of length %d, capacity %d, want the batch's, empty", len(got), cap(got))
	}
	if err := w.send(rec, got); err != nil {
		t.Fatal(err)
	}
	release <- struct{}{}
	time.Sleep(10 * time.Millisecond)
	if small := w.spareBuffer(101); small != nil {
		t.Error("a buffer of 100 bytes came back for 101")
	}
	fail = true
	if err := w.send(rec, make([]byte, 0, 100)); err != nil {
		t.Fatal(err)
	}
	close(release)
	if err := w.close(); err == nil {
		t.Fatal("close: no error after a failed write")
	}
	if failed := w.spareBuffer(1); failed != nil {
		t.Error("the buffer of a batch whose write failed came back")
	}
}
