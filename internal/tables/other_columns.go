package tables

import (
	"fmt"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// OtherColumns are the columns of a request file (a pair list, a file of
// trips) that the run does not read but its answer carries beside each
// row, so that a trip id or a mode needs no join: one value per row of
// the file, in file order, nulls kept.
type OtherColumns struct {
	// Fields name each column as the file writes it, with its type.
	Fields []arrow.Field
	// Arrays hold the values of Fields[j] at j. The holder owns a
	// reference to each, which Release gives up.
	Arrays []arrow.Array
}

// Release gives up the references to the arrays.
func (o *OtherColumns) Release() {
	for _, a := range o.Arrays {
		a.Release()
	}
	o.Fields, o.Arrays = nil, nil
}

// OutputFields checks the columns against an output of rows rows whose
// own columns are named reserved, and returns their fields as the output
// writes them (nullable, the file's type). A column named as one the
// output writes is refused, since the output would hold two columns of
// one name; what names what the file is, for the message.
func (o OtherColumns) OutputFields(what string, rows int, reserved ...string) ([]arrow.Field, error) {
	if len(o.Fields) != len(o.Arrays) {
		return nil, fmt.Errorf("tables: %d other columns with %d arrays", len(o.Fields), len(o.Arrays))
	}
	fields := make([]arrow.Field, len(o.Fields))
	for j, f := range o.Fields {
		if slices.Contains(reserved, f.Name) {
			return nil, fmt.Errorf("tables: %s has a column %q, a name the output gives one of its own (%v): rename it in the file", what, f.Name, reserved)
		}
		if n := o.Arrays[j].Len(); n != rows {
			return nil, fmt.Errorf("tables: column %q holds %d values for %d rows", f.Name, n, rows)
		}
		fields[j] = arrow.Field{Name: f.Name, Type: f.Type, Nullable: true}
	}
	return fields, nil
}

// Slice returns the values of rows lo..hi-1 of every column, sharing the
// columns' memory; the caller releases them.
func (o OtherColumns) Slice(lo, hi int) []arrow.Array {
	out := make([]arrow.Array, len(o.Arrays))
	for j, a := range o.Arrays {
		out[j] = array.NewSlice(a, int64(lo), int64(hi))
	}
	return out
}

// keptChunks gathers the chunks of a table's columns batch by batch, to
// be joined into one array each at the end: what a reader keeps of the
// columns it does not read.
type keptChunks struct {
	fields []arrow.Field
	cols   []int // the columns' indices in the schema
	chunks [][]arrow.Array
}

// newKeptChunks keeps the columns of schema that are not among skip.
func newKeptChunks(schema *arrow.Schema, skip ...int) *keptChunks {
	k := &keptChunks{}
	for i, f := range schema.Fields() {
		if !slices.Contains(skip, i) {
			k.fields, k.cols = append(k.fields, f), append(k.cols, i)
		}
	}
	k.chunks = make([][]arrow.Array, len(k.cols))
	return k
}

// add keeps the columns of one record batch.
func (k *keptChunks) add(rec arrow.RecordBatch) {
	for j, c := range k.cols {
		a := rec.Column(c)
		a.Retain()
		k.chunks[j] = append(k.chunks[j], a)
	}
}

// release gives up the chunks.
func (k *keptChunks) release() {
	for _, chunks := range k.chunks {
		for _, a := range chunks {
			a.Release()
		}
	}
	k.chunks = nil
}

// columns joins each column's chunks into one array, copied, so that no
// record batch stays alive for them, and releases the chunks.
func (k *keptChunks) columns(mem memory.Allocator) (OtherColumns, error) {
	defer k.release()
	out := OtherColumns{Fields: k.fields, Arrays: make([]arrow.Array, 0, len(k.cols))}
	for j, chunks := range k.chunks {
		var a arrow.Array
		if len(chunks) == 0 {
			a = array.MakeArrayOfNull(mem, k.fields[j].Type, 0)
		} else {
			var err error
			if a, err = array.Concatenate(chunks, mem); err != nil {
				out.Release()
				return OtherColumns{}, fmt.Errorf("tables: column %q: %w", k.fields[j].Name, err)
			}
		}
		out.Arrays = append(out.Arrays, a)
	}
	return out, nil
}
