package geoparquet

import (
	"errors"
	"testing"

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
		if err := w.send(rec); err != nil && sendErr == nil {
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
