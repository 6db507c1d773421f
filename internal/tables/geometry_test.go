package tables

import (
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/tables/tablestest"
)

// randomGeometry is the geometry of m arcs: most without points, some
// with a few, arc long with many; points anywhere on the globe.
func randomGeometry(seed uint64, m, long int) ArcGeometry {
	rng := tablestest.NewRand(seed)
	g := ArcGeometry{Offsets: make([]int64, m+1)}
	for a := range m {
		k := 0
		switch {
		case a == long:
			k = 5000
		case rng.IntN(3) == 0:
			k = 1 + rng.IntN(6)
		}
		for range k {
			g.X = append(g.X, int32(rng.Int64N(2*graph.MaxLonUnits+1)-graph.MaxLonUnits))
			g.Y = append(g.Y, rng.Int32N(2*graph.MaxLatUnits+1)-graph.MaxLatUnits)
		}
		g.Offsets[a+1] = int64(len(g.X))
	}
	return g
}

// TestArcGeometryRoundTrip writes geometries in both formats, in batches
// smaller than the table, and reads them back the same: arcs without
// points, one with many, none with any, no arcs at all. A rewrite of what
// was read gives the same bytes.
func TestArcGeometryRoundTrip(t *testing.T) {
	t.Parallel()
	withPoints := func(g ArcGeometry) (rows int64) {
		for a := range g.Arcs() {
			if g.Offsets[a+1] > g.Offsets[a] {
				rows++
			}
		}
		return rows
	}
	cases := map[string]ArcGeometry{
		"mixed":     randomGeometry(31, 3000, 1234),
		"last long": randomGeometry(32, 50, 49),
		"no points": {Offsets: make([]int64, 100), X: []int32{}, Y: []int32{}},
		"no arcs":   {Offsets: []int64{0}, X: []int32{}, Y: []int32{}},
	}
	for _, format := range formats {
		for name, g := range cases {
			t.Run(format.String()+"/"+name, func(t *testing.T) {
				mem := tablestest.CheckedAllocator(t)
				path := GeometryFileIn(t.TempDir(), format)
				if filepath.Base(path) != "geometry"+format.Ext() {
					t.Errorf("geometry file %s", path)
				}
				info, err := WriteArcGeometry(path, g, tablestest.Meta, WithFormat(format), WithAllocator(mem), WithBatchRows(97))
				if err != nil {
					t.Fatal(err)
				}
				checkInfo(t, info, withPoints(g))
				back, err := ReadArcGeometry(path, g.Arcs(), WithBatchRows(300))
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(back, g) {
					t.Fatalf("read back %d offsets, %d points; wrote %d and %d", len(back.Offsets), len(back.X), len(g.Offsets), len(g.X))
				}
				again := filepath.Join(t.TempDir(), "geometry"+format.Ext())
				if _, err := WriteArcGeometry(again, back, tablestest.Meta, WithFormat(format), WithBatchRows(97)); err != nil {
					t.Fatal(err)
				}
				tablestest.SameBytes(t, path, again)
			})
		}
	}
}

// TestArcGeometryTable reads the table as another tool would: one row per
// arc with points, arc numbers and points in degrees in travel order,
// float64 lists with the reference system in the metadata.
func TestArcGeometryTable(t *testing.T) {
	t.Parallel()
	g := ArcGeometry{Offsets: []int64{0, 0, 2, 2, 3}, X: []int32{10, 123456789, -1800000000}, Y: []int32{-20, 5, 900000000}}
	for _, format := range formats {
		path := GeometryFileIn(t.TempDir(), format)
		if _, err := WriteArcGeometry(path, g, nil, WithFormat(format)); err != nil {
			t.Fatal(err)
		}
		tr, err := OpenTable(path, defaultConfig())
		if err != nil {
			t.Fatal(err)
		}
		var arcs []int32
		var lon, lat [][]float64
		err = tr.Scan(func(rec arrow.RecordBatch) error {
			arcs = append(arcs, rec.Column(0).(*array.Int32).Int32Values()...)
			for i, list := range []*[][]float64{&lon, &lat} {
				l := rec.Column(i + 1).(*array.List)
				for r := range l.Len() {
					lo, hi := l.ValueOffsets(r)
					*list = append(*list, l.ListValues().(*array.Float64).Float64Values()[lo:hi])
				}
			}
			return nil
		})
		schema := tr.Schema()
		tr.Close()
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(arcs, []int32{1, 3}) || !reflect.DeepEqual(lon, [][]float64{{1e-6, 12.3456789}, {-180}}) || !reflect.DeepEqual(lat, [][]float64{{-2e-6, 5e-7}, {90}}) {
			t.Errorf("%v: rows %v %v %v", format, arcs, lon, lat)
		}
		for i, name := range []string{ColArc, ColLon, ColLat} {
			f := schema.Field(i)
			if f.Name != name || !sameType(f.Type, ArcGeometrySchema(nil).Field(i).Type) {
				t.Errorf("%v: column %d is %s %s", format, i, f.Name, f.Type)
			}
			if crs, _ := f.Metadata.GetValue(FieldCRS); i > 0 && crs != CRS84 {
				t.Errorf("%v: column %s has crs %q", format, name, crs)
			}
		}
		tablestest.SameMeta(t, UserMeta(schema), map[string]string{MetaCRS: CRS84})
	}
}

// TestArcGeometryRejects: geometries whose offsets do not partition the
// points, or whose points are no coordinates, are not written; tables of
// another graph or of another shape are not read.
func TestArcGeometryRejects(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for name, g := range map[string]ArcGeometry{
		"no offsets":           {},
		"first offset not 0":   {Offsets: []int64{1, 1}, X: []int32{1}, Y: []int32{1}},
		"last offset short":    {Offsets: []int64{0, 1}, X: []int32{1, 2}, Y: []int32{1, 2}},
		"decreasing offsets":   {Offsets: []int64{0, 2, 1, 2}, X: []int32{1, 2}, Y: []int32{1, 2}},
		"more lon than lat":    {Offsets: []int64{0, 2}, X: []int32{1, 2}, Y: []int32{1}},
		"a latitude beyond 90": {Offsets: []int64{0, 1}, X: []int32{1}, Y: []int32{graph.MaxLatUnits + 1}},
	} {
		if _, err := WriteArcGeometry(filepath.Join(dir, "g.parquet"), g, nil); err == nil {
			t.Errorf("a geometry with %s was written", name)
		}
	}
	if _, err := WriteArcGeometry(filepath.Join(dir, "g.parquet"), ArcGeometry{Offsets: []int64{0}}, map[string]string{MetaCRS: "EPSG:4326"}); err == nil {
		t.Error("metadata naming another reference system was written")
	}

	path := GeometryFileIn(dir, Parquet)
	if _, err := WriteArcGeometry(path, randomGeometry(33, 10, 9), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadArcGeometry(path, 9); err == nil || !strings.Contains(err.Error(), "arc 9") {
		t.Errorf("a geometry of 10 arcs read for 9 with error %v", err)
	}

	// Another writer's rows: out of order, lists of unequal lengths, an
	// empty list.
	lists := func(rows ...[]float64) arrow.Array {
		b := array.NewListBuilder(memory.DefaultAllocator, arrow.PrimitiveTypes.Float64)
		defer b.Release()
		vb := b.ValueBuilder().(*array.Float64Builder)
		for _, r := range rows {
			b.Append(true)
			vb.AppendValues(r, nil)
		}
		return b.NewArray()
	}
	for name, tc := range map[string]struct {
		arcs     []int32
		lon, lat arrow.Array
		want     string
	}{
		"arcs out of order": {[]int32{2, 1}, lists([]float64{1}, []float64{1}), lists([]float64{1}, []float64{1}), "arc 1 after arc 2"},
		"unequal lists":     {[]int32{0, 1}, lists([]float64{1}, []float64{1, 2}), lists([]float64{1}, []float64{1}), "arc 1 has 2 longitudes and 1 latitudes"},
		"an empty list":     {[]int32{0, 1}, lists([]float64{1}, []float64{}), lists([]float64{1}, []float64{}), "arc 1 has 0 longitudes"},
		"a lon beyond 180":  {[]int32{0, 1}, lists([]float64{1}, []float64{-181}), lists([]float64{1}, []float64{1}), "lon -181"},
	} {
		fields := []arrow.Field{{Name: ColArc, Type: int32Type}, {Name: ColLon, Type: tc.lon.DataType()}, {Name: ColLat, Type: tc.lat.DataType()}}
		rec := array.NewRecordBatch(arrow.NewSchema(fields, nil), []arrow.Array{int32s(tc.arcs, nil), tc.lon, tc.lat}, int64(len(tc.arcs)))
		path := tablestest.WriteParquet(t, filepath.Join(t.TempDir(), "geometry.parquet"), rec, parquet.NewWriterProperties())
		rec.Release()
		if _, err := ReadArcGeometry(path, 5); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: read with error %v, want one saying %q", name, err, tc.want)
		}
	}
}
