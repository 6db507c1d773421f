package places

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/pathflow/pathflow/internal/snap"
	"github.com/pathflow/pathflow/internal/tables"
)

// Column names of the table of places.
const (
	ColOriginID      = "origin_id"
	ColDestinationID = "destination_id"
	ColDistance      = "distance"
	ColReason        = "reason"
)

// ReasonNoRoute is the reason of a pair of snapped places no route joins.
const ReasonNoRoute = "no route"

// TableWriter writes the table of places: one row per origin and
// destination, origins in file order and each origin's destinations in
// file order, keyed by the places' own ids in their own types. A pair
// without an answer has a null distance and a reason: the origin's or the
// destination's snapping failure, or "no route". Rows are handed to a
// goroutine that encodes them while the searches run.
type TableWriter struct {
	origins, destinations     []snap.Place
	originIDs, destinationIDs arrow.Array
	schema                    *arrow.Schema
	batchOrigins              int
	pending                   [][]int64
	chunks                    chan chunk
	done                      chan struct{}
	info                      tables.FileInfo
	err                       error
	mem                       memory.Allocator
	firstOfPending            int
	closed                    bool
}

// NewTableWriter starts the table at path. originIDs and destinationIDs
// are the places' id columns (one value per place, any type); meta goes
// into the schema, distanceField's metadata says the unit.
func NewTableWriter(path string, origins, destinations []snap.Place, originIDs, destinationIDs arrow.Array, meta map[string]string, unit string, opts ...tables.Option) (*TableWriter, error) {
	cfg, err := tables.NewConfig(opts)
	if err != nil {
		return nil, err
	}
	if originIDs.Len() != len(origins) || destinationIDs.Len() != len(destinations) {
		return nil, fmt.Errorf("places: %d origin ids for %d origins, %d destination ids for %d destinations", originIDs.Len(), len(origins), destinationIDs.Len(), len(destinations))
	}
	distMeta := arrow.MetadataFrom(map[string]string{"unit": unit})
	schema := tables.SchemaWith(meta,
		arrow.Field{Name: ColOriginID, Type: originIDs.DataType()},
		arrow.Field{Name: ColDestinationID, Type: destinationIDs.DataType()},
		arrow.Field{Name: ColDistance, Type: arrow.PrimitiveTypes.Int64, Nullable: true, Metadata: distMeta},
		arrow.Field{Name: ColReason, Type: arrow.BinaryTypes.String, Nullable: true},
	)
	w := &TableWriter{
		origins: origins, destinations: destinations, originIDs: originIDs, destinationIDs: destinationIDs,
		schema: schema, batchOrigins: max(1, cfg.BatchRows/max(1, len(destinations))),
		chunks: make(chan chunk, 2), done: make(chan struct{}), mem: cfg.Mem,
	}
	go func() {
		defer close(w.done)
		w.info, w.err = tables.WriteFile(path, schema, tables.ParquetEncoding{Delta: []string{ColDistance}}, cfg, func(emit func(arrow.RecordBatch) error) error {
			for ch := range w.chunks {
				rec, err := w.batch(ch)
				if err == nil {
					err = emit(rec)
					rec.Release()
				}
				if err != nil {
					for range w.chunks {
					}
					return err
				}
			}
			return nil
		})
	}()
	return w, nil
}

// Emit takes origin i's row (a Combiner's Emit): origins must come in
// order.
func (w *TableWriter) Emit(i int, row []int64) error {
	if i != w.firstOfPending+len(w.pending) {
		return fmt.Errorf("places: origin %d out of order", i)
	}
	w.pending = append(w.pending, row)
	if len(w.pending) >= w.batchOrigins {
		return w.send()
	}
	return nil
}

// chunk is the rows of consecutive origins, the first being origin
// first.
type chunk struct {
	first int
	rows  [][]int64
}

// send hands the pending origins' rows to the encoding goroutine.
func (w *TableWriter) send() error {
	if len(w.pending) == 0 {
		return nil
	}
	ch := chunk{first: w.firstOfPending, rows: w.pending}
	w.firstOfPending += len(w.pending)
	w.pending = nil
	select {
	case w.chunks <- ch:
		return nil
	case <-w.done:
		return w.err
	}
}

// batch builds the record of a chunk: the origin's id repeated, the
// destinations' ids, the distances with nulls where there is no answer,
// and the reasons there.
func (w *TableWriter) batch(ch chunk) (arrow.RecordBatch, error) {
	nd := len(w.destinations)
	n := len(ch.rows) * nd
	originCol := array.NewBuilder(w.mem, w.originIDs.DataType())
	defer originCol.Release()
	reason := array.NewStringBuilder(w.mem)
	defer reason.Release()
	values := make([]int64, n)
	valid := make([]byte, bitutil.BytesForBits(int64(n)))
	nulls := 0
	dests := make([]arrow.Array, len(ch.rows))
	for k, row := range ch.rows {
		i := ch.first + k
		if err := appendRepeated(originCol, w.originIDs, i, nd); err != nil {
			return nil, err
		}
		dests[k] = w.destinationIDs
		p := w.origins[i]
		for j, d := range row {
			at := k*nd + j
			if d != NoPath {
				values[at] = d
				bitutil.SetBit(valid, at)
				reason.AppendNull()
				continue
			}
			nulls++
			reason.Append(w.reasonFor(p, w.destinations[j]))
		}
	}
	destCol, err := array.Concatenate(dests, w.mem)
	if err != nil {
		return nil, err
	}
	defer destCol.Release()
	dist := array.NewInt64Data(array.NewData(arrow.PrimitiveTypes.Int64, n,
		[]*memory.Buffer{memory.NewBufferBytes(valid), memory.NewBufferBytes(arrow.Int64Traits.CastToBytes(values))}, nil, nulls, 0))
	o, r := originCol.NewArray(), reason.NewArray()
	defer o.Release()
	defer dist.Release()
	defer r.Release()
	return array.NewRecordBatch(w.schema, []arrow.Array{o, destCol, dist, r}, int64(n)), nil
}

// reasonFor says why a pair has no answer.
func (w *TableWriter) reasonFor(p, q snap.Place) string {
	switch {
	case !p.OK:
		return "origin: " + p.Reason
	case !q.OK:
		return "destination: " + q.Reason
	}
	return ReasonNoRoute
}

// Close writes the last rows and waits for the file.
func (w *TableWriter) Close() (tables.FileInfo, error) {
	err := w.send()
	w.closed = true
	close(w.chunks)
	<-w.done
	if err != nil {
		return tables.FileInfo{}, err
	}
	return w.info, w.err
}

// Abort stops the writer; its file never appears.
func (w *TableWriter) Abort() {
	if w.closed {
		return
	}
	w.closed = true
	close(w.chunks)
	<-w.done
}

// appendRepeated appends value i of ids count times to b, which has ids'
// type.
func appendRepeated(b array.Builder, ids arrow.Array, i, count int) error {
	switch b := b.(type) {
	case *array.Int64Builder:
		v := ids.(*array.Int64).Value(i)
		for range count {
			b.Append(v)
		}
	case *array.Int32Builder:
		v := ids.(*array.Int32).Value(i)
		for range count {
			b.Append(v)
		}
	case *array.StringBuilder:
		v := ids.(*array.String).Value(i)
		for range count {
			b.Append(v)
		}
	default:
		v := ids.ValueStr(i)
		for range count {
			if err := b.AppendValueFromString(v); err != nil {
				return fmt.Errorf("places: id %q: %w", v, err)
			}
		}
	}
	return nil
}
