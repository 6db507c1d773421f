// Package arrowslices builds the Arrow arrays and record batches of the
// table writers (packages tables and resultfiles) straight from flat
// slices: either wrapping a caller's slice without a copy (the input
// outlives the write, and writers copy what they keep), or filling a buffer
// from the allocator. No per-value appends.
package arrowslices

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// WrapInt32 returns a non-null Int32 array over vals, sharing its memory.
func WrapInt32(vals []int32) arrow.Array {
	return Primitive(arrow.PrimitiveTypes.Int32, len(vals), nil, 0, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(vals)))
}

// WrapInt64 returns a non-null Int64 array over vals, sharing its memory.
func WrapInt64(vals []int64) arrow.Array {
	return Primitive(arrow.PrimitiveTypes.Int64, len(vals), nil, 0, memory.NewBufferBytes(arrow.Int64Traits.CastToBytes(vals)))
}

// Primitive assembles a fixed-width array from a validity bitmap (nil when
// nothing is null) and a value buffer. The array takes its own references.
func Primitive(t arrow.DataType, n int, valid *memory.Buffer, nulls int, values *memory.Buffer) arrow.Array {
	data := array.NewData(t, n, []*memory.Buffer{valid, values}, nil, nulls, 0)
	defer data.Release()
	return array.MakeFromData(data)
}

// allocBuffer returns a buffer of n bytes from mem. Its contents are
// undefined: callers write every byte.
func allocBuffer(mem memory.Allocator, n int) *memory.Buffer {
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(n)
	return buf
}

// Int32Buffer returns an allocator buffer of n int32 values and a slice
// over it.
func Int32Buffer(mem memory.Allocator, n int) (*memory.Buffer, []int32) {
	buf := allocBuffer(mem, arrow.Int32Traits.BytesRequired(n))
	return buf, arrow.Int32Traits.CastFromBytes(buf.Bytes())[:n]
}

// Int64Buffer is Int32Buffer for int64 values.
func Int64Buffer(mem memory.Allocator, n int) (*memory.Buffer, []int64) {
	buf := allocBuffer(mem, arrow.Int64Traits.BytesRequired(n))
	return buf, arrow.Int64Traits.CastFromBytes(buf.Bytes())[:n]
}

// Float64Buffer is Int32Buffer for float64 values.
func Float64Buffer(mem memory.Allocator, n int) (*memory.Buffer, []float64) {
	buf := allocBuffer(mem, arrow.Float64Traits.BytesRequired(n))
	return buf, arrow.Float64Traits.CastFromBytes(buf.Bytes())[:n]
}

// BitmapBuffer returns a zeroed validity bitmap for n values.
func BitmapBuffer(mem memory.Allocator, n int) (*memory.Buffer, []byte) {
	buf := allocBuffer(mem, int(bitutil.BytesForBits(int64(n))))
	bits := buf.Bytes()
	clear(bits)
	return buf, bits
}

// BitmapOrNil trims a validity bitmap to n values for an array to take, or
// returns nil when no value is null.
func BitmapOrNil(bits *memory.Buffer, n, nulls int) *memory.Buffer {
	if nulls == 0 {
		return nil
	}
	bits.ResizeNoShrink(int(bitutil.BytesForBits(int64(n))))
	return bits
}

// NewRecord assembles a record batch and releases the caller's references
// to cols, which the record now holds.
func NewRecord(schema *arrow.Schema, n int, cols ...arrow.Array) arrow.RecordBatch {
	rec := array.NewRecordBatch(schema, cols, int64(n))
	for _, c := range cols {
		c.Release()
	}
	return rec
}
