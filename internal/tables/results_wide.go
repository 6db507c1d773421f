package tables

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/results"
)

// int64List is int32List for int64 elements.
var int64List = arrow.ListOfField(arrow.Field{Name: "element", Type: int64Type, Nullable: true})

// nullableInt32List is int32List with nullable elements (the parents of
// the wide layout).
var nullableInt32List = arrow.ListOfField(arrow.Field{Name: "element", Type: int32Type, Nullable: true})

// WideResultSchema is the schema of the wide layout: one row per source,
// the distances (null: unreachable or beyond the cutoff) and optionally
// the parents to the targets as lists in target order.
func WideResultSchema(withParents bool, meta map[string]string) *arrow.Schema {
	fields := []arrow.Field{
		{Name: ColSource, Type: int32Type},
		{Name: ColDistance, Type: int64List},
	}
	if withParents {
		fields = append(fields, arrow.Field{Name: ColParent, Type: nullableInt32List})
	}
	return schemaWith(meta, fields...)
}

// wideBatch gathers the rows of one wide-layout record batch: up to
// capacity sources of width list entries each.
type wideBatch struct {
	n, width       int
	parents        bool // b.par is nil when no list has entries
	src, offsets   []int32
	cellColumns    // width cells per row
	bufs           columnBuffers
	srcBuf, offBuf *memory.Buffer
}

func newWideBatch(mem memory.Allocator, capacity, width int, withParents bool) *wideBatch {
	b := &wideBatch{width: width, parents: withParents}
	cells := capacity * width
	var buf *memory.Buffer
	buf, b.src = int32Buffer(mem, capacity)
	b.srcBuf = b.bufs.add(buf)
	buf, b.offsets = int32Buffer(mem, capacity+1)
	b.offBuf = b.bufs.add(buf)
	for i := range b.offsets {
		b.offsets[i] = int32(i * width)
	}
	b.alloc(mem, &b.bufs, cells, withParents)
	return b
}

func (b *wideBatch) reset() {
	b.cellColumns.reset(b.n * b.width)
	b.n = 0
}

// addRow appends row r, narrowed to the targets: its cells, null where
// unreachable or beyond maxDistance.
func (b *wideBatch) addRow(rows *results.Rows, r int, maxDistance int64) {
	b.src[b.n] = rows.Sources[r]
	base, at := r*rows.Width, b.n*b.width
	dist := rows.Distances()
	for j := range b.width {
		k := at + j
		d, kept := dist.Within(base+j, maxDistance)
		if !kept {
			b.dist[k] = 0
			b.distNulls++
			if b.parents {
				b.par[k] = paths.NoParent
				b.parNulls++
			}
			continue
		}
		b.dist[k] = d
		bitSet(b.distBits, k)
		if b.parents {
			b.parNulls += parentCell(b.par, b.parBits, k, rows.Parent[base+j])
		}
	}
	b.n++
}

// record returns the gathered rows as a record batch sharing the batch's
// buffers: release it before the batch is refilled.
func (b *wideBatch) record(schema *arrow.Schema) arrow.RecordBatch {
	n, cells := b.n, b.n*b.width
	offsets := prefix(b.offBuf, arrow.Int32Traits.BytesRequired(n+1))
	cols := []arrow.Array{
		primitive(int32Type, n, nil, 0, prefix(b.srcBuf, arrow.Int32Traits.BytesRequired(n))),
		listArray(int64List, n, offsets, b.distArray(cells)),
	}
	if b.parents {
		cols = append(cols, listArray(nullableInt32List, n, offsets, b.parArray(cells)))
	}
	return newRecord(schema, n, cols...)
}

// listArray assembles a list array without nulls of n lists over values;
// it takes its own references and releases the caller's values.
func listArray(t arrow.DataType, n int, offsets *memory.Buffer, values arrow.Array) arrow.Array {
	defer values.Release()
	data := array.NewData(t, n, []*memory.Buffer{nil, offsets}, []arrow.ArrayData{values.Data()}, 0, 0)
	defer data.Release()
	return array.MakeFromData(data)
}
