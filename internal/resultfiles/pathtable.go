package resultfiles

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/pathflow/pathflow/internal/arrowslices"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/internal/tables"
)

// PathRow is one row of the paths table: a shortest path from Source to
// Target.
type PathRow struct {
	Source, Target int32
	// Cost is the path length, or paths.Unreachable (null in the table).
	Cost int64
	// Vertices is the vertex sequence from Source to Target, both included,
	// or nil (null in the table) when there is no path or it is unknown.
	Vertices []int32
}

// NewPathRow returns the row for target in t: its distance and, when t has
// parents, the path. O(path length).
func NewPathRow(t results.SingleSource, target int32) PathRow {
	return PathRow{Source: t.From(), Target: target, Cost: t.WeightTo(target), Vertices: t.To(target)}
}

// pathsEncoding delta-encodes the pairs' ids and costs. The vertex lists
// stay PLAIN: the paths of one source share their first vertices, runs the
// codec finds whole, where delta encoding leaves it only the bit-packed
// steps. On 100,000 Delaware routes (1,000 sources x 100 targets) the file
// is 8% smaller PLAIN (225 MB against 245 MB with snappy) and the writer
// spends less, arrow-go's delta encoder costing a bit-writer call a value.
var pathsEncoding = tables.ParquetEncoding{Delta: []string{ColSource, ColTarget, ColCost}}

// maxBatchListValues bounds the list values of one paths batch, keeping the
// int32 list offsets far from overflow whatever the path lengths.
const maxBatchListValues = 1 << 28

// WritePaths writes rows as a paths table (PathsSchema) to path, which
// belongs in an output folder committed as a whole, in batches of at most
// WithBatchRows rows; with ids.Write, each row ends with the input's ids
// of its source, target and path. O(rows + total path length).
func WritePaths(path string, rows []PathRow, ids OriginalIDs, meta map[string]string, opts ...tables.Option) (tables.FileInfo, error) {
	return WritePathsWith(path, rows, ids, tables.OtherColumns{}, meta, opts...)
}

// WritePathsWith is WritePaths with a request file's other columns, a
// value per row, after source and target. O(rows + total path length).
func WritePathsWith(path string, rows []PathRow, ids OriginalIDs, others tables.OtherColumns, meta map[string]string, opts ...tables.Option) (tables.FileInfo, error) {
	cfg, err := tables.NewConfig(opts)
	if err != nil {
		return tables.FileInfo{}, err
	}
	if err := tables.CheckMeta(meta); err != nil {
		return tables.FileInfo{}, err
	}
	otherFields, err := others.OutputFields("the request file", len(rows), ColCost, ColVertices)
	if err != nil {
		return tables.FileInfo{}, err
	}
	schema := PathsSchema(ids, meta)
	if len(otherFields) > 0 {
		fields := schema.Fields()
		fields = append(fields[:2:2], append(otherFields, fields[2:]...)...)
		schema = tables.SchemaWith(meta, fields...)
	}
	return tables.WriteFile(path, schema, pathsEncoding, cfg, func(emit func(arrow.RecordBatch) error) error {
		for lo := 0; lo < len(rows); {
			hi, values := lo, 0
			for hi < len(rows) && hi-lo < cfg.BatchRows && (hi == lo || values+len(rows[hi].Vertices) <= maxBatchListValues) {
				values += len(rows[hi].Vertices)
				hi++
			}
			otherCols := others.Slice(lo, hi)
			rec := pathsRecord(cfg.Mem, schema, rows[lo:hi], values, ids, otherCols)
			for _, a := range otherCols {
				a.Release()
			}
			err := emit(rec)
			rec.Release()
			if err != nil {
				return err
			}
			lo = hi
		}
		return nil
	})
}

func pathsRecord(mem memory.Allocator, schema *arrow.Schema, rows []PathRow, values int, ids OriginalIDs, others []arrow.Array) arrow.RecordBatch {
	n := len(rows)
	srcBuf, src := arrowslices.Int32Buffer(mem, n)
	dstBuf, dst := arrowslices.Int32Buffer(mem, n)
	costBuf, cost := arrowslices.Int64Buffer(mem, n)
	costValid, costBits := arrowslices.BitmapBuffer(mem, n)
	offBuf, offsets := arrowslices.Int32Buffer(mem, n+1)
	valBuf, vals := arrowslices.Int32Buffer(mem, values)
	listValid, listBits := arrowslices.BitmapBuffer(mem, n)
	defer func() {
		for _, b := range []*memory.Buffer{srcBuf, dstBuf, costBuf, costValid, offBuf, valBuf, listValid} {
			b.Release()
		}
	}()

	costNulls, listNulls, at := 0, 0, 0
	for i, r := range rows {
		src[i], dst[i], cost[i] = r.Source, r.Target, r.Cost
		if r.Cost != paths.Unreachable {
			bitSet(costBits, i)
		} else {
			costNulls++
		}
		offsets[i] = int32(at)
		if r.Vertices != nil {
			bitSet(listBits, i)
			at += copy(vals[at:], r.Vertices)
		} else {
			listNulls++
		}
	}
	offsets[n] = int32(at)

	items := arrowslices.Primitive(int32Type, values, nil, 0, valBuf)
	defer items.Release()
	listData := array.NewData(int32List, n, []*memory.Buffer{arrowslices.BitmapOrNil(listValid, n, listNulls), offBuf},
		[]arrow.ArrayData{items.Data()}, listNulls, 0)
	defer listData.Release()
	cols := []arrow.Array{
		arrowslices.Primitive(int32Type, n, nil, 0, srcBuf),
		arrowslices.Primitive(int32Type, n, nil, 0, dstBuf),
	}
	for _, a := range others {
		a.Retain() // the record takes a reference of its own
		cols = append(cols, a)
	}
	cols = append(cols,
		arrowslices.Primitive(int64Type, n, arrowslices.BitmapOrNil(costValid, n, costNulls), costNulls, costBuf),
		array.MakeFromData(listData),
	)
	if ids.Write {
		cols = append(cols, originalPathColumns(ids, src, dst, vals, listData)...)
	}
	return arrowslices.NewRecord(schema, n, cols...)
}

// originalPathColumns returns the input's ids of the rows' sources,
// targets and path vertices (vals, listed as pathList lists them: the same
// offsets and nulls). O(rows + path length).
func originalPathColumns(ids OriginalIDs, src, dst, vals []int32, pathList arrow.ArrayData) []arrow.Array {
	n := len(src)
	srcOrig, dstOrig, valsOrig := make([]int64, n), make([]int64, n), make([]int64, len(vals))
	for i := range n {
		srcOrig[i], dstOrig[i] = ids.Vertices.Original(src[i]), ids.Vertices.Original(dst[i])
	}
	for k, v := range vals {
		valsOrig[k] = ids.Vertices.Original(v)
	}
	items := arrowslices.WrapInt64(valsOrig)
	defer items.Release()
	buffers := pathList.Buffers() // validity and offsets, shared with the vertices column
	list := array.NewData(originalIDList, n, buffers, []arrow.ArrayData{items.Data()}, pathList.NullN(), 0)
	defer list.Release()
	return []arrow.Array{arrowslices.WrapInt64(srcOrig), arrowslices.WrapInt64(dstOrig), array.MakeFromData(list)}
}

// ReadPaths reads a paths table in either format and returns its rows and
// schema metadata; null costs read back as paths.Unreachable and null
// vertex lists as nil. The input's ids, when written, are not read: the
// rows name vertices densely.
func ReadPaths(path string, opts ...tables.Option) (rows []PathRow, meta map[string]string, err error) {
	_, meta, err = tables.ScanTable(path, PathsSchema(OriginalIDs{}, nil), []int{0, 1}, opts, func(rec arrow.RecordBatch, idx []int) error {
		src := rec.Column(idx[0]).(*array.Int32).Int32Values()
		dst := rec.Column(idx[1]).(*array.Int32).Int32Values()
		costCol := rec.Column(idx[2]).(*array.Int64)
		cost := costCol.Int64Values()
		list := rec.Column(idx[3]).(*array.List)
		items, ok := list.ListValues().(*array.Int32)
		if !ok {
			return fmt.Errorf("tables: column %q holds %s values", ColVertices, list.ListValues().DataType())
		}
		if items.NullN() > 0 {
			return fmt.Errorf("tables: column %q has null vertices", ColVertices)
		}
		vals := items.Int32Values()
		for i := range src {
			r := PathRow{Source: src[i], Target: dst[i], Cost: paths.Unreachable}
			if costCol.IsValid(i) {
				r.Cost = cost[i]
			}
			if list.IsValid(i) {
				start, end := list.ValueOffsets(i)
				r.Vertices = append(make([]int32, 0, end-start), vals[start:end]...)
			}
			rows = append(rows, r)
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return rows, meta, nil
}
