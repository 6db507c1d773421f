package places

import (
	"fmt"
	"path/filepath"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
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

// TableWriter writes the table of places into a folder of part files:
// one row per origin and destination, origins in file order and each
// origin's destinations in file order, keyed by the places' own ids in
// their own types; part-00000 holds the first origins, and so on. With a
// metric, its column follows the distance. A pair without an answer has a
// null distance (and metric) and a reason: the origin's or the
// destination's snapping failure, or "no route". Parts are encoded on up
// to the tables' concurrency goroutines while the searches run, each part
// whole origins of about the configured part rows.
type TableWriter struct {
	dir                       string
	origins, destinations     []snap.Place
	originIDs, destinationIDs arrow.Array
	schema                    *arrow.Schema
	cfg                       tables.Config
	opts                      []tables.Option
	partOrigins               int
	metricName                string // "" for none

	pending, pendingMetrics [][]int64
	firstOfPending          int
	parts                   []tables.FileInfo
	slots                   chan struct{}
	wg                      sync.WaitGroup
	mu                      sync.Mutex
	err                     error
}

// NewTableWriter starts the table in the folder dir. originIDs and
// destinationIDs are the places' id columns (one value per place, any
// type); meta goes into the schema, and the weights' unit it names into
// the distance field's metadata (tables.DistanceField). metric is the
// field of the metric reported beside the distance (int64, nullable, its
// unit in its metadata), its zero value for none.
func NewTableWriter(dir string, origins, destinations []snap.Place, originIDs, destinationIDs arrow.Array, metric arrow.Field, meta map[string]string, opts ...tables.Option) (*TableWriter, error) {
	cfg, err := tables.NewConfig(opts)
	if err != nil {
		return nil, err
	}
	if originIDs.Len() != len(origins) || destinationIDs.Len() != len(destinations) {
		return nil, fmt.Errorf("places: %d origin ids for %d origins, %d destination ids for %d destinations", originIDs.Len(), len(origins), destinationIDs.Len(), len(destinations))
	}
	fields := []arrow.Field{
		{Name: ColOriginID, Type: originIDs.DataType()},
		{Name: ColDestinationID, Type: destinationIDs.DataType()},
	}
	fields, err = withAnswerFields(fields, metric, meta)
	if err != nil {
		return nil, err
	}
	schema := tables.SchemaWith(meta, fields...)
	width := max(1, len(destinations))
	return &TableWriter{
		dir: dir, origins: origins, destinations: destinations, originIDs: originIDs, destinationIDs: destinationIDs,
		schema: schema, cfg: cfg, opts: opts, metricName: metric.Name,
		partOrigins: int(max(1, cfg.PartRows/int64(width))),
		slots:       make(chan struct{}, cfg.Concurrency),
	}, nil
}

// Emit takes origin i's row and its metrics (a Combiner's Emit): origins
// come in order. A part's worth of origins goes to an encoding goroutine,
// Emit waiting while every goroutine is busy.
func (w *TableWriter) Emit(i int, row, metric []int64) error {
	if i != w.firstOfPending+len(w.pending) {
		return fmt.Errorf("places: origin %d out of order", i)
	}
	if w.metricName != "" && len(metric) != len(row) {
		return fmt.Errorf("places: origin %d has %d metrics for %d destinations", i, len(metric), len(row))
	}
	w.pending = append(w.pending, row)
	w.pendingMetrics = append(w.pendingMetrics, metric)
	if len(w.pending) >= w.partOrigins {
		return w.send()
	}
	return nil
}

// send writes the pending origins as the next part, on its own goroutine.
func (w *TableWriter) send() error {
	if err := w.failed(); err != nil {
		return err
	}
	if len(w.pending) == 0 && (len(w.parts) > 0 || len(w.origins) > 0) {
		return nil
	}
	w.mu.Lock() // the part goroutines write their entries of parts
	part := len(w.parts)
	w.parts = append(w.parts, tables.FileInfo{})
	w.mu.Unlock()
	first, rows, metrics := w.firstOfPending, w.pending, w.pendingMetrics
	w.firstOfPending += len(rows)
	w.pending, w.pendingMetrics = nil, nil
	w.slots <- struct{}{}
	w.wg.Go(func() {
		defer func() { <-w.slots }()
		info, err := w.writePart(part, first, rows, metrics)
		w.mu.Lock()
		defer w.mu.Unlock()
		if err != nil && w.err == nil {
			w.err = err
		}
		w.parts[part] = info
	})
	return nil
}

func (w *TableWriter) failed() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// writePart writes the rows of the origins from first, and their
// metrics, as part file part, in record batches of about the configured
// batch rows.
func (w *TableWriter) writePart(part, first int, rows, metrics [][]int64) (tables.FileInfo, error) {
	path := filepath.Join(w.dir, fmt.Sprintf("part-%05d%s", part, w.cfg.Format.Ext()))
	perBatch := max(1, w.cfg.BatchRows/max(1, len(w.destinations)))
	return tables.WriteFile(path, w.schema, answerEncoding(w.metricName), w.cfg, func(emit func(arrow.RecordBatch) error) error {
		for lo := 0; lo < len(rows) || lo == 0; lo += perBatch {
			hi := min(lo+perBatch, len(rows))
			rec, err := w.batch(first+lo, rows[lo:hi], metrics[lo:hi])
			if err != nil {
				return err
			}
			err = emit(rec)
			rec.Release()
			if err != nil || hi == len(rows) {
				return err
			}
		}
		return nil
	})
}

// batch builds the record of the rows of the origins from first: the
// origin's id repeated, the destinations' ids, the distances (and
// metrics) with nulls where there is no answer, and the reasons there.
// The columns are built straight into their buffers: a table of places is
// millions of rows.
func (w *TableWriter) batch(first int, rows, metrics [][]int64) (arrow.RecordBatch, error) {
	nd := len(w.destinations)
	n := len(rows) * nd
	answers := newAnswerColumns(n, w.metricName != "")
	for k, row := range rows {
		p := &w.origins[first+k]
		for j, d := range row {
			var m int64
			if w.metricName != "" {
				m = metrics[k][j]
			}
			answers.add(d, m, p, &w.destinations[j])
		}
	}
	originCol, err := repeatEach(w.cfg.Mem, w.originIDs, first, len(rows), nd)
	if err != nil {
		return nil, err
	}
	defer originCol.Release()
	dests := make([]arrow.Array, len(rows))
	for k := range dests {
		dests[k] = w.destinationIDs
	}
	destCol, err := array.Concatenate(dests, w.cfg.Mem)
	if err != nil {
		return nil, err
	}
	defer destCol.Release()
	cols := append([]arrow.Array{originCol, destCol}, answerArrays(answers)...)
	defer releaseAll(cols[2:])
	return array.NewRecordBatch(w.schema, cols, int64(n)), nil
}

// Close writes the last rows, waits for every part and returns them in
// order. A table of no origin is one empty part, so that readers find its
// schema.
func (w *TableWriter) Close() ([]tables.FileInfo, error) {
	err := w.send()
	w.wg.Wait()
	if err == nil {
		err = w.failed()
	}
	if err != nil {
		return nil, err
	}
	return w.parts, nil
}

// Abort waits for the parts under way; the folder they are in is never
// committed.
func (w *TableWriter) Abort() { w.wg.Wait() }

// repeatEach returns the values first..first+count-1 of ids, each
// repeated times times.
func repeatEach(mem memory.Allocator, ids arrow.Array, first, count, times int) (arrow.Array, error) {
	switch a := ids.(type) {
	case *array.Int64:
		out := make([]int64, 0, count*times)
		for i := first; i < first+count; i++ {
			for range times {
				out = append(out, a.Value(i))
			}
		}
		return array.NewInt64Data(array.NewData(arrow.PrimitiveTypes.Int64, len(out), []*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int64Traits.CastToBytes(out))}, nil, 0, 0)), nil
	case *array.String:
		offsets := make([]int32, 1, count*times+1)
		var data []byte
		for i := first; i < first+count; i++ {
			v := a.Value(i)
			for range times {
				data = append(data, v...)
				offsets = append(offsets, int32(len(data)))
			}
		}
		return array.NewStringData(array.NewData(arrow.BinaryTypes.String, len(offsets)-1,
			[]*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(offsets)), memory.NewBufferBytes(data)}, nil, 0, 0)), nil
	}
	b := array.NewBuilder(mem, ids.DataType())
	defer b.Release()
	for i := first; i < first+count; i++ {
		if err := appendRepeated(b, ids, i, times); err != nil {
			return nil, err
		}
	}
	return b.NewArray(), nil
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
