package geoparquet

import (
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/pathflow/pathflow/internal/arrowslices"
	"github.com/pathflow/pathflow/internal/atomicfile"
	"github.com/pathflow/pathflow/internal/tables"
)

// The fields of the bounding box column, in the order GeoParquet
// requires.
const (
	colXMin = "xmin"
	colYMin = "ymin"
	colXMax = "xmax"
	colYMax = "ymax"
)

// GeoArrow names WKB columns with an Arrow extension type: readers of
// Arrow IPC files (GDAL, geoarrow-pyarrow, lonboard) find the geometry by
// it, since GeoParquet's metadata is defined for Parquet files only.
const (
	// ExtensionName is the GeoArrow extension of a WKB column.
	ExtensionName = "geoarrow.wkb"
	// extensionMetadata names the CRS as an authority and code, which
	// GeoArrow allows; without a crs key it would mean an unknown one.
	extensionMetadata = `{"crs":"OGC:CRS84","crs_type":"authority_code"}`
)

// batchGeometryBytes bounds the WKB of one record batch (a Parquet row
// group): about the row group size Parquet readers expect, and a bound
// on what a writer holds, since routes are long. A batch ends at the
// first route that reaches it, or at the batch row limit.
const batchGeometryBytes = 64 << 20

// batchSlackBytes is a batch's room beyond the WKB it held before its last
// route (newBatch): a route of up to 65,000 points ends a batch without a
// copy.
const batchSlackBytes = 1 << 20

// routesPerWriteBatch is the routes the Parquet column writer takes
// between page-size checks (tables.ParquetEncoding.WriteBatch): a road
// route's WKB is about 10 KB, so a page ends near its 1 MiB size.
const routesPerWriteBatch = 64

// BBoxType is the type of the bounding box column.
var BBoxType = arrow.StructOf(
	arrow.Field{Name: colXMin, Type: arrow.PrimitiveTypes.Float64},
	arrow.Field{Name: colYMin, Type: arrow.PrimitiveTypes.Float64},
	arrow.Field{Name: colXMax, Type: arrow.PrimitiveTypes.Float64},
	arrow.Field{Name: colYMax, Type: arrow.PrimitiveTypes.Float64},
)

// Schema is the schema of a routes file in format: the leading fields,
// then ColGeometry (binary WKB, null for a pair without a route) and
// ColBBox (BBoxType, null where the geometry is), with meta and the
// MetaCRS key as its metadata.
//
// A Parquet file's GeoParquet metadata (MetaKey) is in its footer, where
// WriteFile puts it once it knows the bounding box of the file; it is
// not part of the schema. An Arrow IPC file writes its schema first, so
// there the schema carries the GeoParquet metadata without the file's
// bounding box (as geopandas' Feather files and GDAL's Arrow driver read
// it), and the geometry field the GeoArrow extension ExtensionName.
func Schema(leading []arrow.Field, meta map[string]string, format tables.Format) *arrow.Schema {
	withCRS := make(map[string]string, len(meta)+2)
	for k, v := range meta {
		withCRS[k] = v
	}
	withCRS[tables.MetaCRS] = tables.CRS84
	geometry := arrow.Field{Name: ColGeometry, Type: arrow.BinaryTypes.Binary, Nullable: true}
	if format == tables.Arrow {
		withCRS[MetaKey] = routesMetadata(Box{}, true).marshal()
		geometry.Metadata = arrow.NewMetadata(
			[]string{"ARROW:extension:name", "ARROW:extension:metadata"},
			[]string{ExtensionName, extensionMetadata})
	}
	fields := append(slices.Clip(leading), geometry, arrow.Field{Name: ColBBox, Type: BBoxType, Nullable: true})
	return tables.SchemaWith(withCRS, fields...)
}

// WriteFile writes a routes file to path as tables.WriteFile does
// (created through atomicfile.CreateIn, removed on failure), in the
// format, codec and batch size of cfg, with enc for the leading columns.
// produce appends the rows to rows; WriteFile cuts them into record
// batches of at most cfg.BatchRows rows and about batchGeometryBytes of
// WKB, and adds the GeoParquet metadata, with the bounding box of every
// route, to the footer of a Parquet file. meta may not use MetaKey, and
// no leading field may be named ColGeometry or ColBBox.
// O(rows + points).
func WriteFile(path string, leading []arrow.Field, meta map[string]string, enc tables.ParquetEncoding, cfg tables.Config, produce func(rows *Rows) error) (info tables.FileInfo, err error) {
	if err := checkTable(leading, meta); err != nil {
		return tables.FileInfo{}, err
	}
	schema := Schema(leading, meta, cfg.Format)
	f, err := atomicfile.CreateIn(path) // *.partial until its folder commits
	if err != nil {
		return tables.FileInfo{}, fmt.Errorf("geoparquet: %w", err)
	}
	defer func() {
		if err == nil {
			atomicfile.StartWriteback(f) // the folder's commit syncs it
		}
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("geoparquet: %w (writing %s)", cerr, path)
		}
		if err != nil {
			os.Remove(f.Name())
		}
	}()
	enc.WriteBatch = routesPerWriteBatch
	tw, err := tables.NewTableWriter(f, schema, enc, cfg)
	if err != nil {
		return tables.FileInfo{}, err
	}
	ahead := startWriteAhead(tw.Write)
	rows := newRows(schema, len(leading), cfg, ahead.send, ahead.spareMemory)
	defer rows.release()
	err = produce(rows)
	if err == nil {
		err = rows.flush()
	}
	if werr := ahead.close(); err == nil {
		err = werr
	}
	if err == nil && cfg.Format == tables.Parquet {
		err = tw.AppendParquetMetadata(MetaKey, routesMetadata(rows.extent, rows.routes == 0).marshal())
	}
	if err != nil {
		tw.Close()
		return tables.FileInfo{}, fmt.Errorf("%w (writing %s)", err, path)
	}
	if info, err = tw.Close(); err != nil {
		return tables.FileInfo{}, fmt.Errorf("%w (writing %s)", err, path)
	}
	info.Path = path
	return info, nil
}

// checkTable rejects metadata and leading fields that would clash with
// what WriteFile adds.
func checkTable(leading []arrow.Field, meta map[string]string) error {
	if err := tables.CheckMeta(meta); err != nil {
		return err
	}
	if err := tables.CheckCRSMeta(meta); err != nil {
		return err
	}
	if _, ok := meta[MetaKey]; ok {
		return fmt.Errorf("geoparquet: metadata key %q is the GeoParquet metadata's", MetaKey)
	}
	for _, f := range leading {
		if f.Name == ColGeometry || f.Name == ColBBox {
			return fmt.Errorf("geoparquet: a leading column is named %q, which the routes table uses", f.Name)
		}
	}
	return nil
}

// Rows appends the rows of a routes file. For each row the caller
// appends one value to the builder of every leading column (Leading), or
// for a list of int32 through AppendInt32List, then ends the row with its
// route: AppendLine or AppendNull. One goroutine owns it.
//
// The geometry and bbox columns are not built through Arrow builders:
// AppendLine writes WKB straight into one byte slice per batch, and the
// bounds into float64 slices, which become the batch's arrays without a
// copy, so a point costs its encoding and nothing else.
type Rows struct {
	schema  *arrow.Schema
	mem     memory.Allocator
	leading []array.Builder
	maxRows int
	// emit hands on a full batch and the memory its columns wrap; spare,
	// unless nil, returns a written batch's memory to fill again, or none
	// (writeAhead).
	emit  func(rec arrow.RecordBatch, mem batchMemory) error
	spare func() batchMemory
	// recycled is the written batch's memory this batch fills, asked for
	// at the batch's first need of memory (taken).
	recycled batchMemory
	taken    bool
	// lists are the leading columns filled in place (AppendInt32List), by
	// column; nil where the column's builder takes its values.
	lists []*int32List

	// The batch's geometry: WKB of every row in values, row i at
	// values[offsets[i]:offsets[i+1]], and whether it has one. A null
	// row's bounds are 0, hidden by the null bbox.
	values                 []byte
	valuesCap              int // of values, once the batch's first route comes
	offsets                []int32
	valid                  []bool
	nulls                  int
	xmin, ymin, xmax, ymax []float64

	rows    int64 // rows ended, every batch
	routes  int64 // rows with a route
	batches int64 // emitted
	extent  Box   // of every route
}

func newRows(schema *arrow.Schema, leading int, cfg tables.Config, emit func(arrow.RecordBatch, batchMemory) error, spare func() batchMemory) *Rows {
	r := &Rows{schema: schema, mem: cfg.Mem, maxRows: cfg.BatchRows, emit: emit, spare: spare, extent: emptyBox(), lists: make([]*int32List, leading)}
	for i := range leading {
		r.leading = append(r.leading, array.NewBuilder(cfg.Mem, schema.Field(i).Type))
	}
	// The first batch gets a full batch's room too: grown from nothing to
	// 64 MiB a route at a time, a slice is copied about twenty times
	// (Go grows large slices by a quarter). Room never written costs no
	// memory, as the operating system backs only the pages touched.
	r.newBatch(batchGeometryBytes)
	return r
}

// release frees the leading columns' builders.
func (r *Rows) release() {
	for _, b := range r.leading {
		b.Release()
	}
}

// newBatch starts a batch with room for the geometry bytes of the last
// one, up to a full batch, and batchSlackBytes more: a batch ends once its
// WKB reaches batchGeometryBytes, after the route that crossed it, so
// without the slack that route would copy the whole batch into a slice
// twice its size (0.75 of the 5 cpu-s that writing 100,000 Delaware
// routes, 1 GB of WKB, took).
func (r *Rows) newBatch(geometryBytes int) {
	r.values, r.valuesCap = nil, min(geometryBytes, batchGeometryBytes)+batchSlackBytes
	r.offsets = append(make([]int32, 0, min(r.maxRows, 1<<16)+1), 0)
	r.valid, r.nulls = r.valid[:0], 0
	r.xmin, r.ymin, r.xmax, r.ymax = nil, nil, nil, nil
	r.recycled, r.taken = batchMemory{}, false
	for _, l := range r.lists {
		if l != nil {
			l.newBatch()
		}
	}
}

// takeSpare asks once a batch for a written batch's memory to fill.
func (r *Rows) takeSpare() {
	if !r.taken && r.spare != nil {
		r.recycled = r.spare()
	}
	r.taken = true
}

// Leading returns the builder of leading column i, whose type is the
// builder of the field's type (array.Int32Builder for int32, and so on).
func (r *Rows) Leading(i int) array.Builder {
	return r.leading[i]
}

// AppendLine ends the row with the route through the points (lon[i],
// lat[i]) in degrees, in order. A route of one point (a pair whose ends
// snap to the same place) is written as a LineString of that point twice:
// Simple Features allows no LineString of one point, and the repeated
// point keeps what every other route has, a geometry that starts at the
// origin, ends at the destination and is as long as the route (zero), in
// the one geometry type of the file. A route of no points is a pair
// without a route, as AppendNull writes it. Points must be finite, with
// longitudes within ±180 and latitudes within ±90 degrees. After an
// error the row is left half-written: produce returns it, and WriteFile
// removes the file. O(points).
func (r *Rows) AppendLine(lon, lat []float64) error {
	if len(lon) != len(lat) {
		return fmt.Errorf("geoparquet: row %d: %d longitudes and %d latitudes", r.rows, len(lon), len(lat))
	}
	if len(lon) == 0 {
		return r.AppendNull()
	}
	box := emptyBox()
	for i := range lon {
		if !(math.Abs(lon[i]) <= 180 && math.Abs(lat[i]) <= 90) { // NaN fails too
			return fmt.Errorf("geoparquet: row %d: point %d at longitude %v, latitude %v is not on the globe", r.rows, i, lon[i], lat[i])
		}
		box.addPoint(lon[i], lat[i])
	}
	if len(lon) == 1 {
		lon, lat = []float64{lon[0], lon[0]}, []float64{lat[0], lat[0]}
	}
	if err := r.reserveLine(len(lon)); err != nil {
		return err
	}
	r.values = AppendLineString(r.values, lon, lat)
	return r.endLine(box)
}

// AppendLineWith ends the row with the route of points points, whose
// coordinates fill writes into coords (points x 16 bytes, each point in
// the Coords form) and whose bounding box it returns (or an error, which
// AppendLineWith returns naming the row): a route a caller
// assembles by copying points it encoded once (a road network's vertices
// and its arcs' intermediate points, AppendCoordsUnits), straight into
// the batch's WKB, with no conversion per point. The rules for one point
// and no points are AppendLine's; the points must be on the globe, as
// AppendCoordsUnits makes them. After an error the row is left
// half-written, as AppendLine's. O(points).
func (r *Rows) AppendLineWith(points int, fill func(coords []byte) (Box, error)) error {
	return r.AppendLineIn(points, func(batch []byte, at int) (Box, error) {
		return fill(batch[at : at+points*pointBytes])
	})
}

// AppendLineIn is AppendLineWith for a caller that copies points from the
// lines of the rows before: fill gets the WKB of the whole batch so far,
// whose rows before this one lie unchanged in batch[:at], and writes the
// route's coordinates into batch[at:at+points*16]. An offset into the
// batch stays valid (the slice may move as the batch grows) until the
// batch ends, which Batch tells. O(points).
func (r *Rows) AppendLineIn(points int, fill func(batch []byte, at int) (Box, error)) error {
	if points == 0 {
		return r.AppendNull()
	}
	written := max(points, 2)
	if err := r.reserveLine(written); err != nil {
		return err
	}
	at := len(r.values)
	r.values = r.values[:at+LineStringBytes(written)]
	b := r.values[at:]
	b[0] = wkbLittleEndian
	binary.LittleEndian.PutUint32(b[1:], wkbLineString)
	binary.LittleEndian.PutUint32(b[wkbHeaderBytes:], uint32(written))
	coords := at + wkbHeaderBytes + 4
	box, err := fill(r.values[:coords+points*pointBytes], coords)
	if err != nil {
		return fmt.Errorf("geoparquet: row %d: %w", r.rows, err)
	}
	if points == 1 {
		copy(r.values[coords+pointBytes:], r.values[coords:coords+pointBytes])
	}
	return r.endLine(box)
}

// Batch returns the number of batches emitted so far: the batch the next
// row goes to, whose WKB AppendLineIn hands over.
func (r *Rows) Batch() int64 { return r.batches }

// reserveLine makes room in the batch's WKB for a LineString of points.
func (r *Rows) reserveLine(points int) error {
	size := LineStringBytes(points)
	if len(r.values)+size > math.MaxInt32 {
		return fmt.Errorf("geoparquet: row %d: a route of %d points does not fit a binary column", r.rows, points)
	}
	if r.values == nil {
		r.takeSpare()
		if cap(r.recycled.wkb) >= max(r.valuesCap, size) {
			r.values = r.recycled.wkb
		}
		r.recycled.wkb = nil
		if r.values == nil {
			r.values = make([]byte, 0, max(r.valuesCap, size))
		}
	}
	r.values = slices.Grow(r.values, size)
	return nil
}

// endLine ends the row whose WKB was just written, with its bounding
// box.
func (r *Rows) endLine(box Box) error {
	r.offsets = append(r.offsets, int32(len(r.values)))
	r.valid = append(r.valid, true)
	r.xmin, r.ymin = append(r.xmin, box.XMin), append(r.ymin, box.YMin)
	r.xmax, r.ymax = append(r.xmax, box.XMax), append(r.ymax, box.YMax)
	r.extent.addBox(box)
	r.routes++
	return r.endRow()
}

// AppendNull ends the row without a route (an unreachable pair): null
// geometry and null bounding box, as GeoParquet requires of a row
// without a geometry.
func (r *Rows) AppendNull() error {
	r.offsets = append(r.offsets, int32(len(r.values)))
	r.valid = append(r.valid, false)
	r.nulls++
	r.xmin, r.ymin = append(r.xmin, 0), append(r.ymin, 0)
	r.xmax, r.ymax = append(r.xmax, 0), append(r.ymax, 0)
	return r.endRow()
}

// endRow checks that every leading column has a value for the row just
// ended, and emits the batch once it is full.
func (r *Rows) endRow() error {
	n := len(r.valid)
	for i := range r.leading {
		if got := r.columnLen(i); got != n {
			return fmt.Errorf("geoparquet: row %d: leading column %q has %d values in the batch, want %d",
				r.rows, r.schema.Field(i).Name, got, n)
		}
	}
	r.rows++
	if n >= r.maxRows || len(r.values) >= batchGeometryBytes {
		return r.flush()
	}
	return nil
}

// flush emits the rows appended since the last batch, if any. A leading
// value appended after the last row ended is an error: its row has no
// route.
func (r *Rows) flush() error {
	n := len(r.valid)
	for i := range r.leading {
		if got := r.columnLen(i); got != n {
			return fmt.Errorf("geoparquet: leading column %q has %d values past the last row: a row was not ended",
				r.schema.Field(i).Name, got-n)
		}
	}
	if n == 0 {
		return nil
	}
	cols := make([]arrow.Array, 0, len(r.schema.Fields()))
	mem := batchMemory{wkb: r.values}
	for i, b := range r.leading {
		if l := r.lists[i]; l != nil {
			cols = append(cols, l.array(r.mem, r.schema.Field(i).Type))
			if mem.lists == nil {
				mem.lists = make([][]int32, len(r.leading))
			}
			mem.lists[i] = l.values
			continue
		}
		cols = append(cols, b.NewArray())
	}
	geometry, bbox := r.routeArrays()
	rec := arrowslices.NewRecord(r.schema, n, append(cols, geometry, bbox)...)
	defer rec.Release()
	// The writer refers to the batch's memory until it has written it, so
	// the next batch gets slices of its own; emit hands the memory back
	// once it is free (writeAhead.spareMemory).
	r.newBatch(len(r.values))
	r.batches++
	return r.emit(rec, mem)
}

// routeArrays wraps the batch's geometry and bounds as the geometry and
// bbox arrays, sharing their memory.
func (r *Rows) routeArrays() (geometry, bbox arrow.Array) {
	n := len(r.valid)
	var validity *memory.Buffer
	if r.nulls > 0 {
		buf, bits := arrowslices.BitmapBuffer(r.mem, n)
		defer buf.Release()
		for i, ok := range r.valid {
			if ok {
				bitutil.SetBit(bits, i)
			}
		}
		validity = buf
	}
	geomData := array.NewData(arrow.BinaryTypes.Binary, n, []*memory.Buffer{validity,
		memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(r.offsets)), memory.NewBufferBytes(r.values)}, nil, r.nulls, 0)
	defer geomData.Release()
	bounds := make([]arrow.ArrayData, 4)
	for i, vals := range [][]float64{r.xmin, r.ymin, r.xmax, r.ymax} {
		bounds[i] = array.NewData(arrow.PrimitiveTypes.Float64, n,
			[]*memory.Buffer{nil, memory.NewBufferBytes(arrow.Float64Traits.CastToBytes(vals))}, nil, 0, 0)
		defer bounds[i].Release()
	}
	bboxData := array.NewData(BBoxType, n, []*memory.Buffer{validity}, bounds, r.nulls, 0)
	defer bboxData.Release()
	return array.MakeFromData(geomData), array.MakeFromData(bboxData)
}
