package geoparquet

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"

	"github.com/pathflow/pathflow/internal/tables"
)

// route is one row of the test file: its leading values and its points.
type route struct {
	source, target int32
	lengthM        float64 // NaN: null
	lon, lat       []float64
	null           bool // written with AppendNull
}

// testRoutes are routes in Delaware, with the ways the writer treats
// short ones: one point, none, and none said with AppendNull.
var testRoutes = []route{
	{source: 0, target: 1, lengthM: 3300, lon: []float64{-75.5, -75.52, -75.51}, lat: []float64{39.7, 39.71, 39.73}},
	{source: 0, target: 2, lengthM: 0, lon: []float64{-75.6}, lat: []float64{39.1}},
	{source: 1, target: 2, lengthM: math.NaN()},
	{source: 1, target: 3, lengthM: math.NaN(), null: true},
	{source: 2, target: 0, lengthM: 60000.5, lon: []float64{-75.05, -75.4}, lat: []float64{38.45, 38.9}},
}

// Expected values, worked out by hand from testRoutes: each row's
// LineString and box (nil: null), and the file's box.
var (
	wantLines = [][2][]float64{
		{{-75.5, -75.52, -75.51}, {39.7, 39.71, 39.73}},
		{{-75.6, -75.6}, {39.1, 39.1}}, // one point, twice
		{nil, nil},
		{nil, nil},
		{{-75.05, -75.4}, {38.45, 38.9}},
	}
	wantBoxes = []*Box{
		{XMin: -75.52, YMin: 39.7, XMax: -75.5, YMax: 39.73},
		{XMin: -75.6, YMin: 39.1, XMax: -75.6, YMax: 39.1},
		nil,
		nil,
		{XMin: -75.4, YMin: 38.45, XMax: -75.05, YMax: 38.9},
	}
	wantFileBox = []float64{-75.6, 38.45, -75.05, 39.73}
)

var testLeading = []arrow.Field{
	{Name: "source", Type: arrow.PrimitiveTypes.Int32},
	{Name: "target", Type: arrow.PrimitiveTypes.Int32},
	{Name: "length_m", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
}

// appendRoutes is the produce callback that writes routes.
func appendRoutes(routes []route) func(rows *Rows) error {
	return func(rows *Rows) error {
		for _, r := range routes {
			rows.Leading(0).(*array.Int32Builder).Append(r.source)
			rows.Leading(1).(*array.Int32Builder).Append(r.target)
			if math.IsNaN(r.lengthM) {
				rows.Leading(2).AppendNull()
			} else {
				rows.Leading(2).(*array.Float64Builder).Append(r.lengthM)
			}
			var err error
			if r.null {
				err = rows.AppendNull()
			} else {
				err = rows.AppendLine(r.lon, r.lat)
			}
			if err != nil {
				return err
			}
		}
		return nil
	}
}

// writeRoutes writes routes to a new file in format, in batches of
// batchRows, checking that every Arrow buffer is released.
func writeRoutes(t *testing.T, format tables.Format, batchRows int, routes []route) string {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	cfg, err := tables.NewConfig([]tables.Option{tables.WithFormat(format), tables.WithBatchRows(batchRows), tables.WithAllocator(mem)})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "routes"+format.Ext())
	info, err := WriteFile(path, testLeading, map[string]string{"pathflow.weight": "time_ms"},
		tables.ParquetEncoding{Delta: []string{"source"}}, cfg, appendRoutes(routes))
	if err != nil {
		t.Fatal(err)
	}
	if info.Rows != int64(len(routes)) || info.Path != path {
		t.Errorf("FileInfo %+v, want %d rows at %s", info, len(routes), path)
	}
	return path
}

// readRows reads a routes file back with pathflow's table reader: each
// row's leading values, its decoded LineString and its box.
type readRow struct {
	source, target int32
	lengthM        float64 // NaN: null
	lon, lat       []float64
	box            *Box
}

func readRoutes(t *testing.T, path string) ([]readRow, *arrow.Schema) {
	t.Helper()
	tr := openTable(t, path)
	defer tr.Close()
	var out []readRow
	err := tr.Scan(func(rec arrow.RecordBatch) error {
		geom := rec.Column(3).(*array.Binary)
		bbox := rec.Column(4).(*array.Struct)
		bound := func(j, i int) float64 { return bbox.Field(j).(*array.Float64).Value(i) }
		length := rec.Column(2).(*array.Float64)
		for i := range int(rec.NumRows()) {
			r := readRow{
				source:  rec.Column(0).(*array.Int32).Value(i),
				target:  rec.Column(1).(*array.Int32).Value(i),
				lengthM: math.NaN(),
			}
			if length.IsValid(i) {
				r.lengthM = length.Value(i)
			}
			if geom.IsValid(i) {
				var err error
				if r.lon, r.lat, err = DecodeLineString(geom.Value(i)); err != nil {
					return err
				}
			}
			if bbox.IsValid(i) {
				r.box = &Box{bound(0, i), bound(1, i), bound(2, i), bound(3, i)}
			}
			out = append(out, r)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out, tr.Schema()
}

// checkRows compares what was read with the routes and the expected
// lines and boxes.
func checkRows(t *testing.T, got []readRow) {
	t.Helper()
	if len(got) != len(testRoutes) {
		t.Fatalf("%d rows, want %d", len(got), len(testRoutes))
	}
	for i, r := range got {
		w := testRoutes[i]
		if r.source != w.source || r.target != w.target || !(r.lengthM == w.lengthM || math.IsNaN(r.lengthM) && math.IsNaN(w.lengthM)) {
			t.Errorf("row %d: leading %d %d %v, want %d %d %v", i, r.source, r.target, r.lengthM, w.source, w.target, w.lengthM)
		}
		if !slices.Equal(r.lon, wantLines[i][0]) || !slices.Equal(r.lat, wantLines[i][1]) {
			t.Errorf("row %d: LineString %v %v, want %v %v", i, r.lon, r.lat, wantLines[i][0], wantLines[i][1])
		}
		if !reflect.DeepEqual(r.box, wantBoxes[i]) {
			t.Errorf("row %d: bbox %+v, want %+v", i, r.box, wantBoxes[i])
		}
	}
}

func TestWriteFileParquet(t *testing.T) {
	path := writeRoutes(t, tables.Parquet, 2, testRoutes)
	got, schema := readRoutes(t, path)
	checkRows(t, got)
	if crs, _ := schema.Metadata().GetValue(tables.MetaCRS); crs != tables.CRS84 {
		t.Errorf("schema %s = %q, want %q", tables.MetaCRS, crs, tables.CRS84)
	}

	pf, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	if pf.NumRowGroups() != 3 {
		t.Errorf("%d row groups of at most 2 rows for 5 rows, want 3", pf.NumRowGroups())
	}
	// GeoParquet: WKB in BYTE_ARRAY, geometry and bbox optional at the
	// root, bbox a group of xmin, ymin, xmax, ymax doubles in that order.
	root := pf.MetaData().Schema.Root()
	geom := root.Field(root.FieldIndexByName(ColGeometry))
	if c := pf.MetaData().Schema.Column(3); c.Path() != ColGeometry || c.PhysicalType() != parquet.Types.ByteArray {
		t.Errorf("leaf column 3 is %s %s, want geometry BYTE_ARRAY", c.Path(), c.PhysicalType())
	}
	if geom.RepetitionType() != parquet.Repetitions.Optional {
		t.Errorf("geometry repetition %s, want OPTIONAL", geom.RepetitionType())
	}
	bbox := root.Field(root.FieldIndexByName(ColBBox))
	if bbox.RepetitionType() != geom.RepetitionType() {
		t.Errorf("bbox repetition %s, geometry's %s: GeoParquet wants them equal", bbox.RepetitionType(), geom.RepetitionType())
	}
	for j, name := range []string{"xmin", "ymin", "xmax", "ymax"} {
		c := pf.MetaData().Schema.Column(4 + j)
		if c.Path() != "bbox."+name || c.PhysicalType().String() != "DOUBLE" {
			t.Errorf("bbox column %d is %s %s, want bbox.%s DOUBLE", j, c.Path(), c.PhysicalType(), name)
		}
	}

	raw := pf.MetaData().KeyValueMetadata().FindValue(MetaKey)
	if raw == nil {
		t.Fatalf("no %q key in the Parquet footer", MetaKey)
	}
	checkGeoMetadata(t, *raw, schema, wantFileBox)
	m, err := ReadMetadata(path)
	if err != nil || !slices.Equal(m.Columns[ColGeometry].BBox, wantFileBox) {
		t.Errorf("ReadMetadata: %+v, %v", m, err)
	}
}

// checkGeoMetadata checks the JSON of the "geo" key against what the
// GeoParquet 1.1 specification and its JSON schema require, field by
// field, reading it as untyped JSON so that a field the writer's types
// misname is caught. fileBox nil means no bbox.
func checkGeoMetadata(t *testing.T, raw string, schema *arrow.Schema, fileBox []float64) {
	t.Helper()
	var geo map[string]any
	if err := json.Unmarshal([]byte(raw), &geo); err != nil {
		t.Fatalf("geo metadata %q: %v", raw, err)
	}
	if geo["version"] != "1.1.0" {
		t.Errorf("version %v, want 1.1.0", geo["version"])
	}
	primary, _ := geo["primary_column"].(string)
	columns, _ := geo["columns"].(map[string]any)
	if primary != "geometry" || len(columns) != 1 {
		t.Fatalf("primary_column %v, columns %v: want geometry and one column", geo["primary_column"], geo["columns"])
	}
	col, _ := columns[primary].(map[string]any)
	if f, ok := schema.FieldsByName(primary); !ok || f[0].Type.ID() != arrow.BINARY {
		t.Errorf("the primary column %q is not a binary column of the schema", primary)
	}
	if col["encoding"] != "WKB" {
		t.Errorf("encoding %v, want WKB", col["encoding"])
	}
	if types, _ := col["geometry_types"].([]any); len(types) != 1 || types[0] != "LineString" {
		t.Errorf("geometry_types %v, want [LineString]", col["geometry_types"])
	}
	// No crs key means OGC:CRS84; a null one would mean an unknown CRS.
	if crs, ok := col["crs"]; ok {
		t.Errorf("crs %v present, want it absent (OGC:CRS84)", crs)
	}
	for _, key := range []string{"edges", "orientation", "epoch"} {
		if v, ok := col[key]; ok {
			t.Errorf("%s %v present: the writer says nothing of it", key, v)
		}
	}
	bbox, ok := col["bbox"].([]any)
	switch {
	case fileBox == nil && ok:
		t.Errorf("bbox %v in a file without routes", bbox)
	case fileBox != nil && len(bbox) != 4:
		t.Errorf("bbox %v, want %v", col["bbox"], fileBox)
	case fileBox != nil:
		for i, v := range bbox {
			if v != fileBox[i] {
				t.Errorf("bbox %v, want %v", bbox, fileBox)
				break
			}
		}
	}
	covering, _ := col["covering"].(map[string]any)
	cover, _ := covering["bbox"].(map[string]any)
	for _, name := range []string{"xmin", "ymin", "xmax", "ymax"} {
		path, _ := cover[name].([]any)
		if len(path) != 2 || path[0] != "bbox" || path[1] != name {
			t.Errorf("covering bbox %s = %v, want [bbox %s]", name, cover[name], name)
		}
	}
	f, ok := schema.FieldsByName("bbox")
	if !ok {
		t.Fatal("no bbox column")
	}
	st, ok := f[0].Type.(*arrow.StructType)
	if !ok || st.NumFields() != 4 {
		t.Fatalf("bbox is %s, want a struct of four doubles", f[0].Type)
	}
	for j, name := range []string{"xmin", "ymin", "xmax", "ymax"} {
		if st.Field(j).Name != name || st.Field(j).Type.ID() != arrow.FLOAT64 {
			t.Errorf("bbox field %d is %s %s, want %s double", j, st.Field(j).Name, st.Field(j).Type, name)
		}
	}
}

func TestWriteFileArrowIPC(t *testing.T) {
	path := writeRoutes(t, tables.Arrow, 2, testRoutes)
	got, schema := readRoutes(t, path)
	checkRows(t, got)
	geom, _ := schema.FieldsByName(ColGeometry)
	if name, _ := geom[0].Metadata.GetValue("ARROW:extension:name"); name != "geoarrow.wkb" {
		t.Errorf("geometry extension %q, want geoarrow.wkb", name)
	}
	var ext map[string]any
	meta, _ := geom[0].Metadata.GetValue("ARROW:extension:metadata")
	if err := json.Unmarshal([]byte(meta), &ext); err != nil || ext["crs"] != "OGC:CRS84" || ext["crs_type"] != "authority_code" {
		t.Errorf("geometry extension metadata %q (%v), want the CRS OGC:CRS84 as an authority code", meta, err)
	}
	raw, ok := schema.Metadata().GetValue(MetaKey)
	if !ok {
		t.Fatalf("no %q key in the schema", MetaKey)
	}
	checkGeoMetadata(t, raw, schema, nil) // no file bbox: the schema comes first
}

func TestWriteFileWithoutRoutes(t *testing.T) {
	for _, routes := range [][]route{nil, testRoutes[2:4]} {
		path := writeRoutes(t, tables.Parquet, 2, routes)
		got, schema := readRoutes(t, path)
		if len(got) != len(routes) {
			t.Errorf("%d rows, want %d", len(got), len(routes))
		}
		pf, err := file.OpenParquetFile(path, false)
		if err != nil {
			t.Fatal(err)
		}
		checkGeoMetadata(t, *pf.MetaData().KeyValueMetadata().FindValue(MetaKey), schema, nil)
		pf.Close()
	}
}

func TestWriteFileRejects(t *testing.T) {
	cfg, err := tables.NewConfig(nil)
	if err != nil {
		t.Fatal(err)
	}
	one := func(lon, lat []float64) func(*Rows) error {
		return appendRoutes([]route{{lengthM: 1, lon: lon, lat: lat}})
	}
	for _, c := range []struct {
		name    string
		leading []arrow.Field
		meta    map[string]string
		produce func(*Rows) error
		want    string
	}{
		{"NaN", testLeading, nil, one([]float64{1, math.NaN()}, []float64{2, 3}), "not on the globe"},
		{"longitude", testLeading, nil, one([]float64{-180.5}, []float64{2}), "not on the globe"},
		{"latitude", testLeading, nil, one([]float64{1, 2}, []float64{3, 90.1}), "not on the globe"},
		{"lengths", testLeading, nil, one([]float64{1, 2}, []float64{3}), "2 longitudes and 1 latitudes"},
		{"leading value missing", testLeading, nil, func(rows *Rows) error {
			rows.Leading(0).(*array.Int32Builder).Append(1)
			return rows.AppendLine([]float64{1, 2}, []float64{3, 4})
		}, `leading column "target" has 0 values`},
		{"row not ended", testLeading, nil, func(rows *Rows) error {
			rows.Leading(0).(*array.Int32Builder).Append(1)
			return nil
		}, "a row was not ended"},
		{"produce fails", testLeading, nil, func(*Rows) error { return errors.New("no more paths") }, "no more paths"},
		{"geo key", testLeading, map[string]string{"geo": "{}"}, appendRoutes(nil), `"geo"`},
		{"geometry column", []arrow.Field{{Name: "geometry", Type: arrow.PrimitiveTypes.Int32}}, nil, appendRoutes(nil), `named "geometry"`},
		{"other CRS", testLeading, map[string]string{tables.MetaCRS: "EPSG:3857"}, appendRoutes(nil), "EPSG:3857"},
	} {
		dir := t.TempDir()
		path := filepath.Join(dir, "routes.parquet")
		_, err := WriteFile(path, c.leading, c.meta, tables.ParquetEncoding{}, cfg, c.produce)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
		}
		if left, _ := os.ReadDir(dir); len(left) != 0 {
			t.Errorf("%s: left %s behind", c.name, left[0].Name())
		}
	}
}

// openTable opens the table file at path with the default settings, for
// the caller to close.
func openTable(t *testing.T, path string) *tables.TableReader {
	t.Helper()
	cfg, err := tables.NewConfig(nil)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := tables.OpenTable(path, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}
