package resultfiles

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/pathflow/pathflow/internal/arrowslices"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/results"
)

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

func newWideBatch(mem memory.Allocator, capacity, width int, withParents, withMetric bool) *wideBatch {
	b := &wideBatch{width: width, parents: withParents}
	cells := capacity * width
	var buf *memory.Buffer
	buf, b.src = arrowslices.Int32Buffer(mem, capacity)
	b.srcBuf = b.bufs.add(buf)
	buf, b.offsets = arrowslices.Int32Buffer(mem, capacity+1)
	b.offBuf = b.bufs.add(buf)
	for i := range b.offsets {
		b.offsets[i] = int32(i * width)
	}
	b.alloc(mem, &b.bufs, cells, withParents, withMetric)
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
		if b.met != nil {
			b.met[k] = rows.Metric64[base+j]
		}
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
		arrowslices.Primitive(int32Type, n, nil, 0, prefix(b.srcBuf, arrow.Int32Traits.BytesRequired(n))),
		listArray(int64List, n, offsets, b.distArray(cells)),
	}
	if b.met != nil {
		cols = append(cols, listArray(int64List, n, offsets, b.metArray(cells)))
	}
	if b.parents {
		cols = append(cols, listArray(nullableInt32List, n, offsets, b.parArray(cells)))
	}
	return arrowslices.NewRecord(schema, n, cols...)
}

// listArray assembles a list array without nulls of n lists over values;
// it takes its own references and releases the caller's values.
func listArray(t arrow.DataType, n int, offsets *memory.Buffer, values arrow.Array) arrow.Array {
	defer values.Release()
	data := array.NewData(t, n, []*memory.Buffer{nil, offsets}, []arrow.ArrayData{values.Data()}, 0, 0)
	defer data.Release()
	return array.MakeFromData(data)
}
