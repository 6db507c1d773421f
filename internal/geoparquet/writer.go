package geoparquet

import (
	"fmt"
	"math"
	"os"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

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
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("geoparquet: %w (writing %s)", cerr, path)
		}
		if err != nil {
			os.Remove(f.Name())
		}
	}()
	tw, err := tables.NewTableWriter(f, schema, enc, cfg)
	if err != nil {
		return tables.FileInfo{}, err
	}
	rows := newRows(schema, len(leading), cfg, tw.Write)
	defer rows.b.Release()
	err = produce(rows)
	if err == nil {
		err = rows.flush()
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
// appends one value to the builder of every leading column (Leading),
// then ends the row with its route: AppendLine or AppendNull. One
// goroutine owns it.
type Rows struct {
	b        *array.RecordBuilder
	leading  int
	geometry *array.BinaryBuilder
	bbox     *array.StructBuilder
	bounds   [4]*array.Float64Builder // xmin, ymin, xmax, ymax
	maxRows  int
	emit     func(arrow.RecordBatch) error

	wkb    []byte // the current row's WKB, reused
	rows   int64  // rows ended, every batch
	routes int64  // rows with a route
	extent Box    // of every route
}

func newRows(schema *arrow.Schema, leading int, cfg tables.Config, emit func(arrow.RecordBatch) error) *Rows {
	b := array.NewRecordBuilder(cfg.Mem, schema)
	bbox := b.Field(leading + 1).(*array.StructBuilder)
	r := &Rows{
		b:        b,
		leading:  leading,
		geometry: b.Field(leading).(*array.BinaryBuilder),
		bbox:     bbox,
		maxRows:  cfg.BatchRows,
		emit:     emit,
		extent:   emptyBox(),
	}
	for i := range r.bounds {
		r.bounds[i] = bbox.FieldBuilder(i).(*array.Float64Builder)
	}
	return r
}

// Leading returns the builder of leading column i, whose type is the
// builder of the field's type (array.Int32Builder for int32, and so on).
func (r *Rows) Leading(i int) array.Builder {
	if i < 0 || i >= r.leading {
		panic(fmt.Sprintf("geoparquet: leading column %d of %d", i, r.leading))
	}
	return r.b.Field(i)
}

// AppendLine ends the row with the route through the points (lon[i],
// lat[i]) in degrees, in order. A route of one point (a pair whose ends
// snap to the same place) is written as a LineString of that point twice:
// Simple Features allows no LineString of one point, and the repeated
// point keeps what every other route has, a geometry that starts at the
// origin, ends at the destination and is as long as the route (zero), in
// the one geometry type of the file. A route of no points is a pair
// without a route, as AppendNull writes it. Points must be finite, with
// longitudes within ±180 and latitudes within ±90 degrees.
// O(points).
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
	r.wkb = AppendLineString(r.wkb[:0], lon, lat)
	if r.geometry.DataLen()+len(r.wkb) > math.MaxInt32 {
		return fmt.Errorf("geoparquet: row %d: a route of %d points does not fit a binary column", r.rows, len(lon))
	}
	r.geometry.Append(r.wkb)
	r.bbox.Append(true)
	r.bounds[0].Append(box.XMin)
	r.bounds[1].Append(box.YMin)
	r.bounds[2].Append(box.XMax)
	r.bounds[3].Append(box.YMax)
	r.extent.addBox(box)
	r.routes++
	return r.endRow()
}

// AppendNull ends the row without a route (an unreachable pair): null
// geometry and null bounding box, as GeoParquet requires of a row
// without a geometry.
func (r *Rows) AppendNull() error {
	r.geometry.AppendNull()
	r.bbox.AppendNull()
	return r.endRow()
}

// endRow checks that every leading column has a value for the row just
// ended, and emits the batch once it is full.
func (r *Rows) endRow() error {
	n := r.geometry.Len()
	for i := range r.leading {
		if got := r.b.Field(i).Len(); got != n {
			return fmt.Errorf("geoparquet: row %d: leading column %q has %d values in the batch, want %d",
				r.rows, r.b.Schema().Field(i).Name, got, n)
		}
	}
	r.rows++
	if n >= r.maxRows || r.geometry.DataLen() >= batchGeometryBytes {
		return r.flush()
	}
	return nil
}

// flush emits the rows appended since the last batch, if any. A leading
// value appended after the last row ended is an error: its row has no
// route.
func (r *Rows) flush() error {
	n := r.geometry.Len()
	for i := range r.leading {
		if got := r.b.Field(i).Len(); got != n {
			return fmt.Errorf("geoparquet: leading column %q has %d values past the last row: a row was not ended",
				r.b.Schema().Field(i).Name, got-n)
		}
	}
	if n == 0 {
		return nil
	}
	rec := r.b.NewRecordBatch()
	defer rec.Release()
	return r.emit(rec)
}
