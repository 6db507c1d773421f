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
		if err := w.send(rec, batchMemory{}); err != nil && sendErr == nil {
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

// TestWriteAheadHandsBackWrittenMemory: a batch's WKB buffer and list
// values come back from spareMemory only once its batch is written, empty
// and with their capacity, and never when its batch failed.
func TestWriteAheadHandsBackWrittenMemory(t *testing.T) {
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
	wkb, list := make([]byte, 10, 100), make([]int32, 3, 50)
	if err := w.send(rec, batchMemory{wkb: wkb, lists: [][]int32{nil, list}}); err != nil {
		t.Fatal(err)
	}
	if got := w.spareMemory(); got.wkb != nil || got.lists != nil {
		t.Fatal("memory came back before its batch was written")
	}
	release <- struct{}{}
	var got batchMemory
	for range 1000 {
		if got = w.spareMemory(); got.wkb != nil {
			break
		}
		time.Sleep(time.Millisecond)
	}
	if len(got.wkb) != 0 || cap(got.wkb) != 100 || &got.wkb[:1][0] != &wkb[0] {
		t.Fatalf("spare WKB of length %d, capacity %d, want the batch's, empty", len(got.wkb), cap(got.wkb))
	}
	if len(got.lists) != 2 || got.lists[0] != nil || len(got.lists[1]) != 0 || cap(got.lists[1]) != 50 || &got.lists[1][:1][0] != &list[0] {
		t.Fatalf("spare lists %v, want none for column 0 and column 1's, empty", got.lists)
	}
	fail = true
	if err := w.send(rec, got); err != nil {
		t.Fatal(err)
	}
	close(release)
	if err := w.close(); err == nil {
		t.Fatal("close: no error after a failed write")
	}
	if failed := w.spareMemory(); failed.wkb != nil || failed.lists != nil {
		t.Error("the memory of a batch whose write failed came back")
	}
}
