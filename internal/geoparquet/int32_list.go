package geoparquet

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/pathflow/pathflow/internal/arrowslices"
)

// int32List is a leading column of lists of int32 that Rows fills in
// place (AppendInt32List): every list's values side by side in one
// slice, the batch's array made from them without a copy, and the slice
// filled again by a later batch once its batch is written. An Arrow list
// builder grows a new values buffer every batch, copying it at each
// doubling into memory the process touches for the first time (100,000
// Delaware routes: 24 million vertices, 135 MB allocated).
type int32List struct {
	values    []int32
	valuesCap int // for values, when the batch has no written batch's to fill
	offsets   []int32
	valid     []bool
	nulls     int
}

// newBatch starts the column's batch with room for an eighth more values
// than the last batch had.
func (l *int32List) newBatch() {
	l.valuesCap = len(l.values) + len(l.values)/8
	l.values = nil
	l.offsets = append(make([]int32, 0, cap(l.offsets)), 0)
	l.valid, l.nulls = l.valid[:0], 0
}

// AppendInt32List appends the list values to leading column i, whose type
// must be a list of int32 (arrow.ListOf(arrow.PrimitiveTypes.Int32)); nil
// values append a null. A column takes its values either this way, from
// the file's first row on, or through its builder (Leading), never both.
// O(len(values)).
func (r *Rows) AppendInt32List(i int, values []int32) error {
	l := r.lists[i]
	if l == nil {
		f := r.schema.Field(i)
		if lt, ok := f.Type.(*arrow.ListType); !ok || lt.Elem().ID() != arrow.INT32 {
			return fmt.Errorf("geoparquet: leading column %q is of type %s, not a list of int32", f.Name, f.Type)
		}
		if r.rows > 0 || len(r.valid) > 0 || r.leading[i].Len() > 0 {
			return fmt.Errorf("geoparquet: row %d: leading column %q took values through its builder before", r.rows, f.Name)
		}
		l = &int32List{}
		l.newBatch()
		r.lists[i] = l
	}
	if l.values == nil {
		r.takeSpare()
		if i < len(r.recycled.lists) {
			l.values, r.recycled.lists[i] = r.recycled.lists[i], nil
		}
		if l.values == nil {
			l.values = make([]int32, 0, l.valuesCap)
		}
	}
	if len(l.values)+len(values) > math.MaxInt32 {
		return fmt.Errorf("geoparquet: row %d: %d values do not fit the list column %q", r.rows, len(l.values)+len(values), r.schema.Field(i).Name)
	}
	l.values = append(l.values, values...)
	l.offsets = append(l.offsets, int32(len(l.values)))
	l.valid = append(l.valid, values != nil)
	if values == nil {
		l.nulls++
	}
	return nil
}

// columnLen is the number of values leading column i has in the batch.
func (r *Rows) columnLen(i int) int {
	if l := r.lists[i]; l != nil {
		return len(l.valid)
	}
	return r.leading[i].Len()
}

// array wraps the batch's lists as an array of typ, sharing their memory.
func (l *int32List) array(mem memory.Allocator, typ arrow.DataType) arrow.Array {
	n := len(l.valid)
	var validity *memory.Buffer
	if l.nulls > 0 {
		buf, bits := arrowslices.BitmapBuffer(mem, n)
		defer buf.Release()
		for i, ok := range l.valid {
			if ok {
				bitutil.SetBit(bits, i)
			}
		}
		validity = buf
	}
	values := array.NewData(arrow.PrimitiveTypes.Int32, len(l.values),
		[]*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(l.values))}, nil, 0, 0)
	defer values.Release()
	data := array.NewData(typ, n, []*memory.Buffer{validity, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(l.offsets))},
		[]arrow.ArrayData{values}, l.nulls, 0)
	defer data.Release()
	return array.MakeFromData(data)
}
