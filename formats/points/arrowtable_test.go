package points

import (
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/pathflow/pathflow/internal/tables/tablestest"
)

// TestReadTables reads Parquet and Arrow IPC places files with each id
// type and coordinate type, in two batches (row groups for Parquet), with
// a duplicate row and a null coordinate, and checks that the ids keep
// their type and values and the coordinates their order.
func TestReadTables(t *testing.T) {
	for _, idc := range []struct {
		dt   arrow.DataType
		json [4]string // the ids as JSON, in row order; rows 0 and 2 are one place
		want any
	}{
		{arrow.PrimitiveTypes.Int64, [4]string{"9007199254740993", "-4", "9007199254740993", "0"}, []int64{9007199254740993, -4, 9007199254740993, 0}},
		{arrow.PrimitiveTypes.Int32, [4]string{"2147483647", "-4", "2147483647", "0"}, []int32{math.MaxInt32, -4, math.MaxInt32, 0}},
		{arrow.BinaryTypes.String, [4]string{`"zone 7"`, `"a,b"`, `"zone 7"`, `"Ünïcode"`}, []string{"zone 7", "a,b", "zone 7", "Ünïcode"}},
		{arrow.BinaryTypes.LargeString, [4]string{`"x"`, `"y"`, `"x"`, `"z"`}, []string{"x", "y", "x", "z"}},
	} {
		for _, coord := range []arrow.DataType{arrow.PrimitiveTypes.Float64, arrow.PrimitiveTypes.Float32, arrow.PrimitiveTypes.Int32} {
			// Values every coordinate type holds exactly.
			lon, lat := [4]string{"-75.5", "12.25", "-75.5", "null"}, [4]string{"39.25", "null", "39.25", "-33.875"}
			wantLon, wantLat := []float64{-75.5, 12.25, -75.5, nan}, []float64{39.25, nan, 39.25, -33.875}
			if coord.ID() == arrow.INT32 {
				lon, lat = [4]string{"-75", "12", "-75", "null"}, [4]string{"39", "null", "39", "-33"}
				wantLon, wantLat = []float64{-75, 12, -75, nan}, []float64{39, nan, 39, -33}
			}
			var rows []string
			for k := range 4 {
				rows = append(rows, fmt.Sprintf(`{"note": "n%d", "lat": %s, "ID": %s, "lon": %s}`, k, lat[k], idc.json[k], lon[k]))
			}
			schema := arrow.NewSchema([]arrow.Field{
				{Name: "note", Type: arrow.BinaryTypes.String, Nullable: true},
				{Name: "lat", Type: coord, Nullable: true},
				{Name: "ID", Type: idc.dt},
				{Name: "lon", Type: coord, Nullable: true},
			}, nil)
			for _, kind := range tableKinds {
				t.Run(fmt.Sprintf("%s/%s ids/%s coordinates", kind.name, idc.dt, coord), func(t *testing.T) {
					path := writeJSON(t, kind, filepath.Join(t.TempDir(), "places"), schema, rows[:2], rows[2:])
					mem := memory.DefaultAllocator
					if kind.name == "arrow" { // Parquet decoding uses the default allocator
						mem = tablestest.CheckedAllocator(t)
					}
					tab, err := read(path, mem)
					if err != nil {
						t.Fatal(err)
					}
					defer tab.Release()
					if !arrow.TypeEqual(tab.IDs.DataType(), idc.dt) {
						t.Fatalf("id type %s, want %s", tab.IDs.DataType(), idc.dt)
					}
					if got := idValues(t, tab.IDs); !reflect.DeepEqual(got, idc.want) {
						t.Errorf("ids %v, want %v", got, idc.want)
					}
					if tab.IDName != "ID" || tab.Path != path {
						t.Errorf("id name %q, path %q; want ID, %s", tab.IDName, tab.Path, path)
					}
					if tab.Len() != 4 || !sameFloats(tab.Lon, wantLon) || !sameFloats(tab.Lat, wantLat) {
						t.Errorf("%d rows, lon %v lat %v; want lon %v lat %v", tab.Len(), tab.Lon, tab.Lat, wantLon, wantLat)
					}
				})
			}
		}
	}
}

// TestReadTablesFloat32 checks that float32 coordinates widen exactly,
// not through decimal text.
func TestReadTablesFloat32(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "longitude", Type: arrow.PrimitiveTypes.Float32},
		{Name: "latitude", Type: arrow.PrimitiveTypes.Float32},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	lon, lat := float32(-75.123456), float32(39.654321)
	b.Field(0).(*array.Int64Builder).Append(math.MinInt64)
	b.Field(1).(*array.Float32Builder).Append(lon)
	b.Field(2).(*array.Float32Builder).Append(lat)
	rec := b.NewRecordBatch()
	defer rec.Release()
	for _, kind := range tableKinds {
		tab, err := Read(kind.write(t, filepath.Join(t.TempDir(), "p"), rec))
		if err != nil {
			t.Fatal(err)
		}
		if ids := idValues(t, tab.IDs).([]int64); ids[0] != math.MinInt64 || tab.Lon[0] != float64(lon) || tab.Lat[0] != float64(lat) {
			t.Errorf("%s: id %d at %v, %v; want %d at %v, %v", kind.name, ids[0], tab.Lon[0], tab.Lat[0], int64(math.MinInt64), float64(lon), float64(lat))
		}
		if got := tab.IDText(0); got != "-9223372036854775808" {
			t.Errorf("%s: IDText %q", kind.name, got)
		}
		tab.Release()
	}
}
