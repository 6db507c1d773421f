package tables

import (
	"math"
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

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/tables/tablestest"
)

// geographicVertices are n vertices at random longitudes and latitudes,
// the first ones at the edges of the range, at zero and one unit off it.
func geographicVertices(seed uint64, n int32) *graph.Vertices {
	rng := tablestest.NewRand(seed)
	vs := &graph.Vertices{OriginalID: make([]int64, n), X: make([]int32, n), Y: make([]int32, n), Geographic: true}
	for v := range n {
		vs.OriginalID[v] = 1<<40 + rng.Int64N(1<<40)
		vs.X[v] = int32(rng.Int64N(2*graph.MaxLonUnits+1) - graph.MaxLonUnits)
		vs.Y[v] = rng.Int32N(2*graph.MaxLatUnits+1) - graph.MaxLatUnits
	}
	edges := [][2]int32{{graph.MaxLonUnits, graph.MaxLatUnits}, {-graph.MaxLonUnits, -graph.MaxLatUnits}, {0, 0}, {-1, 1}, {123456789, -98765432}}
	for i, p := range edges[:min(len(edges), int(n))] {
		vs.X[i], vs.Y[i] = p[0], p[1]
	}
	return vs
}

// TestGeographicGraphRoundTrip writes geographic vertices in both
// formats, in several batches, reads them back exactly (Geographic set,
// the Parquet path on several goroutines), and writes what it read again:
// the same bytes.
func TestGeographicGraphRoundTrip(t *testing.T) {
	t.Parallel()
	const n = 3000
	e := randomGraph(tablestest.NewRand(11), n, 9000)
	vs := geographicVertices(11, n)
	for _, format := range formats {
		t.Run(format.String(), func(t *testing.T) {
			mem := tablestest.CheckedAllocator(t)
			files := GraphFilesIn(t.TempDir(), format)
			if _, err := WriteGraph(files, e, vs, tablestest.Meta, WithFormat(format), WithAllocator(mem), WithBatchRows(700)); err != nil {
				t.Fatal(err)
			}
			for _, workers := range []int{1, 4} {
				e2, vs2, meta, err := ReadGraph(files, WithConcurrency(workers), WithBatchRows(1000))
				if err != nil {
					t.Fatal(err)
				}
				if !vs2.Geographic || !slices.Equal(vs2.X, vs.X) || !slices.Equal(vs2.Y, vs.Y) || !slices.Equal(vs2.OriginalID, vs.OriginalID) {
					t.Fatalf("%d workers: geographic vertices read back differently (geographic %v)", workers, vs2.Geographic)
				}
				again := GraphFilesIn(t.TempDir(), format)
				if _, err := WriteGraph(again, e2, vs2, meta, WithFormat(format), WithBatchRows(700)); err != nil {
					t.Fatal(err)
				}
				tablestest.SameBytes(t, files.Edges, again.Edges)
				tablestest.SameBytes(t, files.Vertices, again.Vertices)
			}
		})
	}
}

// TestGeographicVertexWriters: WriteVertices and WriteVertexSubset, which
// compute outputs use, write lon and lat for geographic vertices, and
// the subset's rows are the whole table's.
func TestGeographicVertexWriters(t *testing.T) {
	t.Parallel()
	vs := geographicVertices(12, 40)
	cfg := defaultConfig()
	for _, format := range formats {
		dir := t.TempDir()
		whole := filepath.Join(dir, "all"+format.Ext())
		if _, err := WriteVertices(whole, 40, vs, nil, WithFormat(format), WithBatchRows(7)); err != nil {
			t.Fatal(err)
		}
		got, n, err := readVertices(whole, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if n != 40 || !reflect.DeepEqual(got, vs) {
			t.Errorf("%v: WriteVertices read back %+v", format, got)
		}
		subset := filepath.Join(dir, "subset"+format.Ext())
		ids := []int32{0, 3, 4, 39}
		if _, err := WriteVertexSubset(subset, 40, vs, ids, nil, WithFormat(format), WithBatchRows(3)); err != nil {
			t.Fatal(err)
		}
		lon, lat := readDegrees(t, subset)
		for i, v := range ids {
			if lon[i] != vs.Lon(v) || lat[i] != vs.Lat(v) {
				t.Errorf("%v: subset row %d at (%v, %v), vertex %d at (%v, %v)", format, i, lon[i], lat[i], v, vs.Lon(v), vs.Lat(v))
			}
		}
	}
}

// readDegrees reads the lon and lat columns of a vertices table.
func readDegrees(t *testing.T, path string) (lon, lat []float64) {
	t.Helper()
	_, _, err := ScanTable(path, arrow.NewSchema([]arrow.Field{{Name: ColLon, Type: float64Type}, {Name: ColLat, Type: float64Type}}, nil), []int{0, 1}, nil,
		func(rec arrow.RecordBatch, idx []int) error {
			lon = append(lon, rec.Column(idx[0]).(*array.Float64).Float64Values()...)
			lat = append(lat, rec.Column(idx[1]).(*array.Float64).Float64Values()...)
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
	return lon, lat
}

// TestGeographicVerticesSchema: readers that know nothing of pathflow
// (DuckDB, polars, pandas) see plain float64 degrees: a DOUBLE Parquet
// column without a logical type, the decimal degrees themselves, and the
// reference system in field and schema metadata.
func TestGeographicVerticesSchema(t *testing.T) {
	t.Parallel()
	vs := &graph.Vertices{X: []int32{123456789, -1800000000}, Y: []int32{-98765432, 900000000}, Geographic: true}
	for _, format := range formats {
		path := filepath.Join(t.TempDir(), "vertices"+format.Ext())
		if _, err := WriteVertices(path, 2, vs, map[string]string{"k": "v"}, WithFormat(format)); err != nil {
			t.Fatal(err)
		}
		tr, err := OpenTable(path, defaultConfig())
		if err != nil {
			t.Fatal(err)
		}
		schema := tr.Schema()
		tr.Close()
		var names []string
		for _, f := range schema.Fields() {
			names = append(names, f.Name+":"+f.Type.String())
		}
		if want := []string{"id:int32", "original_id:int64", "lon:float64", "lat:float64"}; !slices.Equal(names, want) {
			t.Errorf("%v: columns %v, want %v", format, names, want)
		}
		for _, name := range []string{ColLon, ColLat} {
			f, _ := schema.FieldsByName(name)
			md := f[0].Metadata
			if crs, _ := md.GetValue(FieldCRS); crs != "OGC:CRS84" {
				t.Errorf("%v: %s field crs %q", format, name, crs)
			}
			if unit, _ := md.GetValue(FieldUnit); unit != "degrees" {
				t.Errorf("%v: %s field unit %q", format, name, unit)
			}
		}
		tablestest.SameMeta(t, UserMeta(schema), map[string]string{"k": "v", "pathflow.crs": "OGC:CRS84"})
		lon, lat := readDegrees(t, path)
		if !slices.Equal(lon, []float64{12.3456789, -180}) || !slices.Equal(lat, []float64{-9.8765432, 90}) {
			t.Errorf("%v: degrees %v %v", format, lon, lat)
		}
		if format != Parquet {
			continue
		}
		pf, err := file.OpenParquetFile(path, false)
		if err != nil {
			t.Fatal(err)
		}
		for _, i := range []int{2, 3} {
			c := pf.MetaData().Schema.Column(i)
			if c.PhysicalType() != parquet.Types.Double || c.LogicalType().String() != "None" {
				t.Errorf("Parquet column %s: %s, logical type %s; want plain DOUBLE", c.Name(), c.PhysicalType(), c.LogicalType())
			}
		}
		kv := pf.MetaData().KeyValueMetadata()
		if got := kv.FindValue(MetaCRS); got == nil || *got != CRS84 {
			t.Errorf("Parquet key-value metadata %s = %v", MetaCRS, got)
		}
		pf.Close()
	}
}

func float64s(vals ...float64) arrow.Array {
	b := array.NewFloat64Builder(memory.DefaultAllocator)
	defer b.Release()
	b.AppendValues(vals, nil)
	return b.NewArray()
}

// TestGeographicVerticesOfOtherWriters reads lon and lat written by
// another tool, in both formats: finer values round to the nearest 10^-7
// degree; both kinds of coordinates, half a pair, or a value out of
// range are refused.
func TestGeographicVerticesOfOtherWriters(t *testing.T) {
	t.Parallel()
	idField := arrow.Field{Name: ColID, Type: int32Type}
	origField := arrow.Field{Name: ColOriginalID, Type: int64Type}
	lonField, latField := arrow.Field{Name: ColLon, Type: float64Type}, arrow.Field{Name: ColLat, Type: float64Type}
	xField, yField := arrow.Field{Name: ColX, Type: int32Type}, arrow.Field{Name: ColY, Type: int32Type}
	ids, orig := func() arrow.Array { return int32s([]int32{0, 1}, nil) }, func() arrow.Array { return int64s([]int64{5, 6}) }
	write := func(t *testing.T, format Format, fields []arrow.Field, cols ...arrow.Array) string {
		rec := array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, 2)
		defer rec.Release()
		for _, c := range cols {
			c.Release()
		}
		path := filepath.Join(t.TempDir(), "vertices"+format.Ext())
		if format == Parquet {
			return tablestest.WriteParquet(t, path, rec, parquet.NewWriterProperties(parquet.WithMaxRowGroupLength(1)))
		}
		return tablestest.WriteArrowIPC(t, path, rec)
	}
	for _, format := range formats {
		t.Run(format.String(), func(t *testing.T) {
			path := write(t, format, []arrow.Field{idField, origField, lonField, latField}, ids(), orig(), float64s(1.23456789012, -179.99999996), float64s(-0.00000004, 45.00000005))
			vs, _, err := readVertices(path, defaultConfig())
			if err != nil {
				t.Fatal(err)
			}
			if !vs.Geographic || !slices.Equal(vs.X, []int32{12345679, -1800000000}) || !slices.Equal(vs.Y, []int32{0, 450000001}) {
				t.Errorf("read %+v", vs)
			}
			for _, tc := range []struct {
				name   string
				fields []arrow.Field
				cols   []arrow.Array
				want   string
			}{
				{"both kinds", []arrow.Field{idField, origField, xField, yField, lonField, latField},
					[]arrow.Array{ids(), orig(), int32s([]int32{1, 2}, nil), int32s([]int32{1, 2}, nil), float64s(1, 2), float64s(1, 2)}, "both x, y and lon, lat"},
				{"lon alone", []arrow.Field{idField, origField, lonField}, []arrow.Array{ids(), orig(), float64s(1, 2)}, "only one of the lon and lat"},
				{"lon beyond 180", []arrow.Field{idField, origField, lonField, latField}, []arrow.Array{ids(), orig(), float64s(1, 180.5), float64s(1, 2)}, "row 1: lon 180.5"},
				{"lat beyond -90", []arrow.Field{idField, origField, lonField, latField}, []arrow.Array{ids(), orig(), float64s(1, 2), float64s(-90.1, 2)}, "row 0: lat -90.1"},
				{"NaN", []arrow.Field{idField, origField, lonField, latField}, []arrow.Array{ids(), orig(), float64s(math.NaN(), 2), float64s(1, 2)}, "lon NaN"},
				{"integer degrees", []arrow.Field{idField, origField, {Name: ColLon, Type: int32Type}, latField}, []arrow.Array{ids(), orig(), int32s([]int32{1, 2}, nil), float64s(1, 2)}, "type int32"},
			} {
				path := write(t, format, tc.fields, tc.cols...)
				if _, _, err := readVertices(path, defaultConfig()); err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("%s: read with error %v, want one saying %q", tc.name, err, tc.want)
				}
			}
		})
	}
}

// TestWriteGeographicRejects: writers refuse geographic vertices that a
// reader would refuse, and metadata that names another reference system.
func TestWriteGeographicRejects(t *testing.T) {
	t.Parallel()
	e := graph.NewEdgeList(2, 0)
	dir := t.TempDir()
	for name, vs := range map[string]*graph.Vertices{
		"lon beyond 180":     {X: []int32{0, graph.MaxLonUnits + 1}, Y: []int32{0, 0}, Geographic: true},
		"lat beyond -90":     {X: []int32{0, 0}, Y: []int32{-graph.MaxLatUnits - 1, 0}, Geographic: true},
		"no coordinates":     {OriginalID: []int64{4, 5}, Geographic: true},
		"lon of int32's end": {X: []int32{math.MinInt32, 0}, Y: []int32{0, 0}, Geographic: true},
	} {
		if _, err := WriteGraph(GraphFilesIn(dir, Parquet), e, vs, nil); err == nil {
			t.Errorf("WriteGraph accepted vertices with %s", name)
		}
		if _, err := WriteVertices(filepath.Join(dir, "v.parquet"), 2, vs, nil); err == nil {
			t.Errorf("WriteVertices accepted vertices with %s", name)
		}
	}
	vs := &graph.Vertices{X: []int32{0, 0}, Y: []int32{0, 0}, Geographic: true}
	if _, err := WriteGraph(GraphFilesIn(dir, Parquet), e, vs, map[string]string{MetaCRS: "EPSG:3857"}); err == nil {
		t.Error("WriteGraph accepted metadata naming another reference system")
	}
	if _, err := WriteGraph(GraphFilesIn(dir, Parquet), e, vs, map[string]string{MetaCRS: CRS84}); err != nil {
		t.Errorf("WriteGraph refused metadata naming the coordinates' own system: %v", err)
	}
}

// TestGeographicGraphRecords: the in-memory batches carry degrees too,
// and free what they took.
func TestGeographicGraphRecords(t *testing.T) {
	t.Parallel()
	mem := tablestest.CheckedAllocator(t)
	vs := geographicVertices(13, 30)
	e := randomGraph(tablestest.NewRand(13), 30, 100)
	edges, vertices, err := GraphRecords(e, vs, nil, WithAllocator(mem), WithBatchRows(8))
	if err != nil {
		t.Fatal(err)
	}
	var lat []float64
	for _, rec := range vertices {
		lat = append(lat, rec.Column(3).(*array.Float64).Float64Values()...)
		rec.Release()
	}
	for _, rec := range edges {
		rec.Release()
	}
	for v := range int32(30) {
		if lat[v] != vs.Lat(v) {
			t.Fatalf("vertex %d: lat %v, want %v", v, lat[v], vs.Lat(v))
		}
	}
}
