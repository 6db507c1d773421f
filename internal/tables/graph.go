package tables

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/pathflow/pathflow/internal/arrowslices"
	"github.com/pathflow/pathflow/internal/graph"
)

// GraphFiles names the two tables of an ingested graph.
type GraphFiles struct {
	// Edges is the path of the edges table.
	Edges string
	// Vertices is the path of the vertices table.
	Vertices string
}

// GraphFilesIn returns the conventional names in dir: edges.<ext> and
// vertices.<ext>, with the extension of format f.
func GraphFilesIn(dir string, f Format) GraphFiles {
	return GraphFiles{
		Edges:    filepath.Join(dir, "edges"+f.Ext()),
		Vertices: filepath.Join(dir, "vertices"+f.Ext()),
	}
}

// WriteGraph writes the edges table of e, with the arc columns of
// WithArcColumns after its own, and the vertices table of vs (nil means
// identity ids and no coordinates; geographic vertices give lon and lat
// columns) with meta as the schema metadata of both, in record batches of
// at most WithBatchRows rows. Both files are written to temporaries and
// committed only once both are complete, so a failure leaves whatever was
// under those names before. O(N + M); the arc
// columns are passed to the writer without a copy.
func WriteGraph(files GraphFiles, e *graph.EdgeList, vs *graph.Vertices, meta map[string]string, opts ...Option) ([]FileInfo, error) {
	cfg, err := NewConfig(opts)
	if err != nil {
		return nil, err
	}
	if err := CheckMeta(meta); err != nil {
		return nil, err
	}
	if err := e.Validate(); err != nil {
		return nil, fmt.Errorf("tables: %w", err)
	}
	if err := checkVerticesMeta(e.N, vs, meta); err != nil {
		return nil, err
	}
	if err := checkArcColumns(cfg.arcColumns, e.M()); err != nil {
		return nil, err
	}

	edgesSchema := edgesSchemaWith(meta, cfg.arcColumns)
	edges, err := writeTemp(files.Edges, edgesSchema, edgesEncodingWith(cfg.arcColumns), cfg, func(emit func(arrow.RecordBatch) error) error {
		return emitEdges(e, edgesSchema, cfg, emit)
	})
	if err != nil {
		return nil, err
	}
	defer edges.file.Abort()
	verticesSchema := VerticesSchemaOf(vs, meta)
	vertices, err := writeTemp(files.Vertices, verticesSchema, verticesEncoding, cfg, func(emit func(arrow.RecordBatch) error) error {
		return emitVertices(e.N, vs, verticesSchema, cfg, true, emit)
	})
	if err != nil {
		return nil, err
	}
	defer vertices.file.Abort()

	if err := edges.file.Commit(); err != nil {
		return nil, fmt.Errorf("tables: %w", err)
	}
	if err := vertices.file.Commit(); err != nil {
		return nil, fmt.Errorf("tables: %w", err)
	}
	return []FileInfo{edges.info, vertices.info}, nil
}

// GraphRecords returns the record batches WriteGraph would write for e and
// vs (and the arc columns of WithArcColumns), in memory: the edges
// table's, then the vertices table's, each with meta as schema metadata,
// for callers that hand the graph to Arrow consumers in the same process. The arc columns share e's arrays (no
// copy). The caller releases every batch. O(N) for the vertex columns.
func GraphRecords(e *graph.EdgeList, vs *graph.Vertices, meta map[string]string, opts ...Option) (edges, vertices []arrow.RecordBatch, err error) {
	cfg, err := NewConfig(opts)
	if err != nil {
		return nil, nil, err
	}
	if err := CheckMeta(meta); err != nil {
		return nil, nil, err
	}
	if err := checkVerticesMeta(e.N, vs, meta); err != nil {
		return nil, nil, err
	}
	if err := checkArcColumns(cfg.arcColumns, e.M()); err != nil {
		return nil, nil, err
	}
	keep := func(into *[]arrow.RecordBatch) func(arrow.RecordBatch) error {
		return func(rec arrow.RecordBatch) error {
			rec.Retain()
			*into = append(*into, rec)
			return nil
		}
	}
	if err := emitEdges(e, edgesSchemaWith(meta, cfg.arcColumns), cfg, keep(&edges)); err != nil {
		return nil, nil, err
	}
	if err := emitVertices(e.N, vs, VerticesSchemaOf(vs, meta), cfg, false, keep(&vertices)); err != nil {
		return nil, nil, err
	}
	return edges, vertices, nil
}

// Delta encoding suits every graph column: arcs are usually grouped by
// source, heads and input ids of neighbouring rows tend to be close, and
// even random weights pack into fewer bits than PLAIN leaves to the codec
// (on an 8M-arc benchmark: 2.7 instead of 4.0 bytes per arc, half the CPU).
var (
	edgesEncoding    = ParquetEncoding{Delta: []string{ColSrc, ColDst, ColWeight}}
	verticesEncoding = ParquetEncoding{Delta: []string{ColID, ColOriginalID, ColX, ColY}}
)

func checkVertices(n int32, vs *graph.Vertices) error {
	if vs == nil {
		return nil
	}
	if vs.OriginalID != nil && len(vs.OriginalID) != int(n) {
		return fmt.Errorf("tables: %d original ids for %d vertices", len(vs.OriginalID), n)
	}
	if (vs.X == nil) != (vs.Y == nil) {
		return errors.New("tables: only one of the x and y coordinates is set")
	}
	if vs.HasCoordinates() && (len(vs.X) != int(n) || len(vs.Y) != int(n)) {
		return fmt.Errorf("tables: %d x and %d y coordinates for %d vertices", len(vs.X), len(vs.Y), n)
	}
	if err := vs.CheckGeographic(); err != nil {
		return fmt.Errorf("tables: %w", err)
	}
	return nil
}

// checkVerticesMeta is checkVertices with the checks of the metadata of
// vs's table: meta may not contradict the reference system the writer
// records for geographic vertices.
func checkVerticesMeta(n int32, vs *graph.Vertices, meta map[string]string) error {
	if err := checkVertices(n, vs); err != nil {
		return err
	}
	if vs.IsGeographic() {
		return CheckCRSMeta(meta)
	}
	return nil
}

func emitEdges(e *graph.EdgeList, schema *arrow.Schema, cfg Config, emit func(arrow.RecordBatch) error) error {
	for lo := 0; lo < e.M(); lo += cfg.BatchRows {
		hi := min(lo+cfg.BatchRows, e.M())
		cols := []arrow.Array{arrowslices.WrapInt32(e.Src[lo:hi]), arrowslices.WrapInt32(e.Dst[lo:hi]), arrowslices.WrapInt32(e.Weight[lo:hi])}
		for _, c := range cfg.arcColumns {
			cols = append(cols, c.slice(lo, hi))
		}
		rec := arrowslices.NewRecord(schema, hi-lo, cols...)
		err := emit(rec)
		rec.Release()
		if err != nil {
			return err
		}
	}
	return nil
}

// emitVertices hands emit the vertices table of a graph of n vertices in
// batches of cfg.batchRows rows. With reuse, emit must be done with each
// batch when it returns (a file writer encodes it there): the generated id
// columns of every batch then share one pair of buffers, filled anew,
// instead of a fresh pair per batch that the allocator must zero (a fifth
// of the table's writing time for identity ids). A caller that keeps the
// batches passes reuse false.
func emitVertices(n int32, vs *graph.Vertices, schema *arrow.Schema, cfg Config, reuse bool, emit func(arrow.RecordBatch) error) error {
	identity := vs == nil || vs.OriginalID == nil
	var shared idBuffers
	if reuse {
		shared = newIDBuffers(cfg.Mem, min(cfg.BatchRows, int(n)), identity)
		defer shared.release()
	}
	for lo := 0; lo < int(n); lo += cfg.BatchRows {
		hi := min(lo+cfg.BatchRows, int(n))
		bufs := shared
		if !reuse {
			bufs = newIDBuffers(cfg.Mem, hi-lo, identity)
		}
		ids := bufs.ids[:hi-lo]
		for i := range ids {
			ids[i] = int32(lo + i)
		}
		cols := []arrow.Array{arrowslices.Primitive(int32Type, hi-lo, nil, 0, bufs.idBuf)}
		if identity {
			orig := bufs.orig[:hi-lo]
			for i := range orig {
				orig[i] = int64(lo + i)
			}
			cols = append(cols, arrowslices.Primitive(int64Type, hi-lo, nil, 0, bufs.origBuf))
		} else {
			cols = append(cols, arrowslices.WrapInt64(vs.OriginalID[lo:hi]))
		}
		if !reuse {
			bufs.release()
		}
		if vs.HasCoordinates() {
			cols = append(cols, coordinateColumns(cfg.Mem, vs, vs.X[lo:hi], vs.Y[lo:hi])...)
		}
		rec := arrowslices.NewRecord(schema, hi-lo, cols...)
		err := emit(rec)
		rec.Release()
		if err != nil {
			return err
		}
	}
	return nil
}

// coordinateColumns returns the coordinate columns of the rows whose
// coordinates are x and y (in vs's units): none without coordinates,
// lon and lat in degrees for geographic vertices (fresh buffers from mem),
// x and y themselves otherwise.
func coordinateColumns(mem memory.Allocator, vs *graph.Vertices, x, y []int32) []arrow.Array {
	switch {
	case !vs.HasCoordinates():
		return nil
	case vs.Geographic:
		return []arrow.Array{degreesArray(mem, x), degreesArray(mem, y)}
	}
	return []arrow.Array{arrowslices.WrapInt32(x), arrowslices.WrapInt32(y)}
}

// idBuffers hold a batch's generated id column and, for identity ids, its
// original id column.
type idBuffers struct {
	idBuf, origBuf *memory.Buffer
	ids            []int32
	orig           []int64
}

func newIDBuffers(mem memory.Allocator, rows int, identity bool) idBuffers {
	var b idBuffers
	b.idBuf, b.ids = arrowslices.Int32Buffer(mem, rows)
	if identity {
		b.origBuf, b.orig = arrowslices.Int64Buffer(mem, rows)
	}
	return b
}

// release drops the caller's references; arrays built on the buffers
// keep theirs.
func (b idBuffers) release() {
	b.idBuf.Release()
	if b.origBuf != nil {
		b.origBuf.Release()
	}
}

// ReadGraph reads the tables WriteGraph wrote, in either format (detected
// from the file bytes), and returns the graph, its vertex metadata (an
// identity original-id column comes back as a nil OriginalID; X and Y are
// nil when the columns are absent, and Geographic when they were lon and
// lat) and the edges table's schema metadata. Columns beyond the graph's
// (arc columns, anything another tool added) are skipped.
// The vertex count is the number of rows of the vertices table. The arcs
// are validated. Column values are copied in bulk, batch by batch.
func ReadGraph(files GraphFiles, opts ...Option) (e *graph.EdgeList, vs *graph.Vertices, meta map[string]string, err error) {
	cfg, err := NewConfig(opts)
	if err != nil {
		return nil, nil, nil, err
	}
	vs, n, err := readVertices(files.Vertices, cfg)
	if err != nil {
		return nil, nil, nil, err
	}
	e, meta, err = readEdges(files.Edges, n, cfg)
	if err != nil {
		return nil, nil, nil, err
	}
	return e, vs, meta, nil
}

// vertexColumns are the indices of a vertices table's columns in its
// schema: x and y for plain coordinates, or lon and lat for geographic
// ones (geographic true), -1 when the table has none.
type vertexColumns struct {
	id, original int
	x, y         int
	geographic   bool
}

// coordinates reports whether the table has coordinate columns.
func (c vertexColumns) coordinates() bool { return c.x >= 0 }

// findVertexColumns finds the columns of a vertices table in s: id and
// original_id, and either x and y or lon and lat, each pair whole.
func findVertexColumns(s *arrow.Schema) (vertexColumns, error) {
	want := append(VerticesSchema(true, nil).Fields(),
		arrow.Field{Name: ColLon, Type: float64Type}, arrow.Field{Name: ColLat, Type: float64Type})
	idx, err := ColumnIndices(s, want, ColX, ColY, ColLon, ColLat)
	if err != nil {
		return vertexColumns{}, err
	}
	c := vertexColumns{id: idx[0], original: idx[1], x: idx[2], y: idx[3]}
	plain, geo := idx[2] >= 0 || idx[3] >= 0, idx[4] >= 0 || idx[5] >= 0
	switch {
	case plain && geo:
		return vertexColumns{}, errors.New("tables: both x, y and lon, lat columns: which are the coordinates?")
	case (idx[2] < 0) != (idx[3] < 0):
		return vertexColumns{}, errors.New("tables: only one of the x and y columns")
	case (idx[4] < 0) != (idx[5] < 0):
		return vertexColumns{}, errors.New("tables: only one of the lon and lat columns")
	case geo:
		c.x, c.y, c.geographic = idx[4], idx[5], true
	}
	return c, nil
}

// indices lists every column of c that the table has.
func (c vertexColumns) indices() []int {
	if !c.coordinates() {
		return []int{c.id, c.original}
	}
	return []int{c.id, c.original, c.x, c.y}
}

func readVertices(path string, cfg Config) (vs *graph.Vertices, n int32, err error) {
	if format, err := DetectFileFormat(path); err == nil && format == Parquet {
		return readVerticesParquet(path, cfg)
	}
	defer RecoverInto(&err, path)
	tr, err := OpenTable(path, cfg)
	if err != nil {
		return nil, 0, err
	}
	defer tr.Close()
	cols, err := findVertexColumns(tr.schema)
	if err != nil {
		return nil, 0, fmt.Errorf("%w (in %s)", err, path)
	}
	capacity := max(tr.rows, 0)
	vs = &graph.Vertices{OriginalID: make([]int64, 0, capacity), Geographic: cols.geographic}
	if cols.coordinates() {
		vs.X, vs.Y = make([]int32, 0, capacity), make([]int32, 0, capacity)
	}
	identity := true
	err = tr.Scan(func(rec arrow.RecordBatch) error {
		if err := NoNulls(rec, cols.indices()...); err != nil {
			return err
		}
		row := len(vs.OriginalID)
		ids := rec.Column(cols.id).(*array.Int32).Int32Values()
		for i, id := range ids {
			if int(id) != row+i {
				return fmt.Errorf("tables: vertex row %d has id %d", row+i, id)
			}
		}
		orig := rec.Column(cols.original).(*array.Int64).Int64Values()
		for i, o := range orig {
			identity = identity && o == int64(row+i)
		}
		vs.OriginalID = append(vs.OriginalID, orig...)
		switch {
		case cols.geographic:
			vs.X = slices.Grow(vs.X, len(orig))[:len(vs.OriginalID)]
			vs.Y = slices.Grow(vs.Y, len(orig))[:len(vs.OriginalID)]
			lon, lat := rec.Column(cols.x).(*array.Float64).Float64Values(), rec.Column(cols.y).(*array.Float64).Float64Values()
			if err := unitsFromDegrees(vs.X[row:], lon, ColLon, int64(row)); err != nil {
				return err
			}
			if err := unitsFromDegrees(vs.Y[row:], lat, ColLat, int64(row)); err != nil {
				return err
			}
		case cols.coordinates():
			vs.X = append(vs.X, rec.Column(cols.x).(*array.Int32).Int32Values()...)
			vs.Y = append(vs.Y, rec.Column(cols.y).(*array.Int32).Int32Values()...)
		}
		if len(vs.OriginalID) > math.MaxInt32 {
			return errors.New("tables: more vertices than int32 ids can number")
		}
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	n = int32(len(vs.OriginalID))
	if identity {
		vs.OriginalID = nil
	}
	return vs, n, nil
}

func readEdges(path string, n int32, cfg Config) (e *graph.EdgeList, meta map[string]string, err error) {
	if format, err := DetectFileFormat(path); err == nil && format == Parquet {
		return readEdgesParquet(path, n, cfg)
	}
	defer RecoverInto(&err, path)
	tr, err := OpenTable(path, cfg)
	if err != nil {
		return nil, nil, err
	}
	defer tr.Close()
	idx, err := ColumnIndices(tr.schema, EdgesSchema(nil).Fields())
	if err != nil {
		return nil, nil, fmt.Errorf("%w (in %s)", err, path)
	}
	e = graph.NewEdgeList(n, int(max(tr.rows, 0)))
	err = tr.Scan(func(rec arrow.RecordBatch) error {
		if err := NoNulls(rec, idx...); err != nil {
			return err
		}
		e.Src = append(e.Src, rec.Column(idx[0]).(*array.Int32).Int32Values()...)
		e.Dst = append(e.Dst, rec.Column(idx[1]).(*array.Int32).Int32Values()...)
		e.Weight = append(e.Weight, rec.Column(idx[2]).(*array.Int32).Int32Values()...)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	if err := validateArcs(e, cfg.Concurrency); err != nil {
		return nil, nil, fmt.Errorf("tables: %s: %w", path, err)
	}
	return e, UserMeta(tr.schema), nil
}

// NoNulls rejects a record with a null in any of the given columns, which
// the graph tables never hold.
func NoNulls(rec arrow.RecordBatch, idx ...int) error {
	for _, i := range idx {
		if i >= 0 && rec.Column(i).NullN() > 0 {
			return fmt.Errorf("tables: column %q has nulls", rec.ColumnName(i))
		}
	}
	return nil
}
