package points

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/pathflow/pathflow/internal/tables/tablestest"
)

// tripSchema is a file of trips whose columns that play no role sit
// before, between and after the ones that do, with several types, nulls
// and a list.
var tripSchema = arrow.NewSchema([]arrow.Field{
	{Name: "Mode", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "origin_lon", Type: arrow.PrimitiveTypes.Float64},
	{Name: "people", Type: arrow.PrimitiveTypes.Int64},
	{Name: "origin_lat", Type: arrow.PrimitiveTypes.Float64},
	{Name: "weight", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	{Name: "destination_lon", Type: arrow.PrimitiveTypes.Float64},
	{Name: "destination_lat", Type: arrow.PrimitiveTypes.Float64},
	{Name: "peak", Type: arrow.FixedWidthTypes.Boolean},
	{Name: "stops", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true},
	{Name: "level", Type: arrow.PrimitiveTypes.Int8, Nullable: true},
}, nil)

// tripRows are rows of tripSchema: a duplicate, nulls in every nullable
// column, values that a float64 or an int64 holds only exactly.
var tripRows = []string{
	`{"Mode": "car", "id": 1, "origin_lon": 1, "people": 9007199254740993, "origin_lat": 2, "weight": 0.1, "destination_lon": 3, "destination_lat": 4, "peak": true, "stops": ["a", "b"], "level": -128}`,
	`{"Mode": null, "id": 2, "origin_lon": 1, "people": -1, "origin_lat": 2, "weight": null, "destination_lon": 3, "destination_lat": 4, "peak": false, "stops": null, "level": null}`,
	`{"Mode": "walk, then bus", "id": 3, "origin_lon": 1, "people": 0, "origin_lat": 2, "weight": 1e-300, "destination_lon": 3, "destination_lat": 4, "peak": false, "stops": [], "level": 127}`,
	`{"Mode": "car", "id": 1, "origin_lon": 1, "people": 9007199254740993, "origin_lat": 2, "weight": 0.1, "destination_lon": 3, "destination_lat": 4, "peak": true, "stops": ["a", "b"], "level": -128}`,
	`{"Mode": "", "id": 4, "origin_lon": 1, "people": 5, "origin_lat": 2, "weight": -0.0, "destination_lon": 3, "destination_lat": 4, "peak": true, "stops": [null, "Ü"], "level": 0}`,
}

// tripOthers are the columns of tripSchema that play no role, in order.
var tripOthers = []int{0, 3, 5, 8, 9, 10}

// checkOthers compares the other columns of tab with columns others of
// want, a record batch holding every row of the file.
func checkOthers(t *testing.T, tab *PairTable, want arrow.RecordBatch, others []int) {
	t.Helper()
	if len(tab.Others) != len(others) || len(tab.OtherColumns) != len(others) {
		t.Fatalf("%d other fields and %d other columns, want %d", len(tab.Others), len(tab.OtherColumns), len(others))
	}
	for j, col := range others {
		f, wantF := tab.Others[j], want.Schema().Field(col)
		if f.Name != wantF.Name || !arrow.TypeEqual(f.Type, wantF.Type) || f.Nullable != wantF.Nullable {
			t.Errorf("other column %d is %s, want %s", j, f, wantF)
			continue
		}
		got := tab.OtherColumns[j]
		if !arrow.TypeEqual(got.DataType(), f.Type) {
			t.Errorf("column %q holds %s, its field says %s", f.Name, got.DataType(), f.Type)
		}
		if !array.Equal(got, want.Column(col)) {
			t.Errorf("column %q is %v, want %v", f.Name, got, want.Column(col))
		}
		if got.NullN() != want.Column(col).NullN() {
			t.Errorf("column %q has %d nulls, want %d", f.Name, got.NullN(), want.Column(col).NullN())
		}
	}
}

// TestPairsKeepOtherColumnsTables reads Parquet and Arrow IPC files of
// trips in several batches and checks that every column that plays no
// role comes back with its name, type, values and nulls, in file order,
// and that Release frees all of it.
func TestPairsKeepOtherColumnsTables(t *testing.T) {
	want := recordJSON(t, tripSchema, tripRows...)
	defer want.Release()
	for _, kind := range tableKinds {
		for _, split := range []int{len(tripRows), 1, 3} {
			t.Run(fmt.Sprintf("%s/first batch %d rows", kind.name, split), func(t *testing.T) {
				batches := [][]string{tripRows[:split]}
				if split < len(tripRows) {
					batches = append(batches, tripRows[split:])
				}
				path := writeJSON(t, kind, filepath.Join(t.TempDir(), "trips"), tripSchema, batches...)
				mem := tablestest.CheckedAllocator(t)
				tab, err := readPairs(path, mem)
				if err != nil {
					t.Fatal(err)
				}
				if tab.Len() != len(tripRows) {
					t.Fatalf("%d trips, want %d", tab.Len(), len(tripRows))
				}
				checkOthers(t, tab, want, tripOthers)
				tab.Release()
				if n := mem.CurrentAlloc(); n != 0 {
					t.Errorf("%d bytes still allocated after Release", n)
				}
				if tab.Others != nil || tab.OtherColumns != nil {
					t.Error("Release left the other columns")
				}
			})
		}
	}
}

// TestPairsKeepOtherColumnsEmpty checks that a file of trips without rows
// still gives each other column, empty and typed, and that one without
// other columns gives none.
func TestPairsKeepOtherColumnsEmpty(t *testing.T) {
	for _, kind := range tableKinds {
		t.Run(kind.name+"/no rows", func(t *testing.T) {
			path := writeJSON(t, kind, filepath.Join(t.TempDir(), "trips"), tripSchema, []string{})
			mem := tablestest.CheckedAllocator(t)
			tab, err := readPairs(path, mem)
			if err != nil {
				t.Fatal(err)
			}
			defer tab.Release()
			want := recordJSON(t, tripSchema)
			defer want.Release()
			checkOthers(t, tab, want, tripOthers)
		})
		t.Run(kind.name+"/no other column", func(t *testing.T) {
			schema := arrow.NewSchema([]arrow.Field{
				tripSchema.Field(2), tripSchema.Field(1), tripSchema.Field(4), tripSchema.Field(6), tripSchema.Field(7),
			}, nil)
			row := `{"id": 1, "origin_lon": 1, "origin_lat": 2, "destination_lon": 3, "destination_lat": 4}`
			path := writeJSON(t, kind, filepath.Join(t.TempDir(), "trips"), schema, []string{row}, []string{row})
			mem := tablestest.CheckedAllocator(t)
			tab, err := readPairs(path, mem)
			if err != nil {
				t.Fatal(err)
			}
			defer tab.Release()
			if tab.Len() != 2 || len(tab.Others) != 0 || len(tab.OtherColumns) != 0 {
				t.Errorf("%d trips, %d other fields, %d other columns; want 2, 0, 0", tab.Len(), len(tab.Others), len(tab.OtherColumns))
			}
		})
	}
}

// TestPairsKeepOtherColumnsCSV checks that a CSV file of trips keeps its
// other columns as text, in file order, an empty field being a null and
// a quoted one its text.
func TestPairsKeepOtherColumnsCSV(t *testing.T) {
	text := "Mode,id,origin_lon,people,origin_lat,weight,destination_lon,destination_lat,peak,note\n" +
		"car,1,1,9007199254740993,2,0.1,3,4,true,\"a, \"\"b\"\"\"\n" +
		",2,1,-1,2,,3,4,false,\n" +
		"walk,3,1,007,2,1e-300,3,4,,Ü\n"
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		data []byte
	}{{"plain", []byte(text)}, {"gzip", gzipped(text)}} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, filepath.Join(dir, "trips-"+tc.name), tc.data)
			tab, err := ReadPairs(path)
			if err != nil {
				t.Fatal(err)
			}
			defer tab.Release()
			var fields []arrow.Field
			for _, name := range []string{"Mode", "people", "weight", "peak", "note"} {
				fields = append(fields, arrow.Field{Name: name, Type: arrow.BinaryTypes.String, Nullable: true})
			}
			want := recordJSON(t, arrow.NewSchema(fields, nil),
				`{"Mode": "car", "people": "9007199254740993", "weight": "0.1", "peak": "true", "note": "a, \"b\""}`,
				`{"Mode": null, "people": "-1", "weight": null, "peak": "false", "note": null}`,
				`{"Mode": "walk", "people": "007", "weight": "1e-300", "peak": null, "note": "Ü"}`,
			)
			defer want.Release()
			checkOthers(t, tab, want, []int{0, 1, 2, 3, 4})
		})
	}
	t.Run("no other column", func(t *testing.T) {
		path := writeFile(t, filepath.Join(dir, "bare.csv"), []byte("id,origin_lon,origin_lat,destination_lon,destination_lat\n1,1,2,3,4\n"))
		tab, err := ReadPairs(path)
		if err != nil {
			t.Fatal(err)
		}
		defer tab.Release()
		if len(tab.Others) != 0 || len(tab.OtherColumns) != 0 {
			t.Errorf("%d other fields, %d other columns; want none", len(tab.Others), len(tab.OtherColumns))
		}
	})
	t.Run("a header only", func(t *testing.T) {
		path := writeFile(t, filepath.Join(dir, "header.csv"), []byte("id,origin_lon,origin_lat,destination_lon,destination_lat,mode\n"))
		tab, err := ReadPairs(path)
		if err != nil {
			t.Fatal(err)
		}
		defer tab.Release()
		if len(tab.Others) != 1 || tab.Others[0].Name != "mode" || tab.OtherColumns[0].Len() != 0 {
			t.Errorf("other fields %v, columns %v; want an empty mode", tab.Others, tab.OtherColumns)
		}
	})
}

// TestPairsKeepOtherColumnsError checks that a file refused in a later
// batch leaves nothing of the other columns kept so far allocated.
func TestPairsKeepOtherColumnsError(t *testing.T) {
	bad := `{"Mode": "car", "id": 9, "origin_lon": 200, "people": 1, "origin_lat": 2, "weight": 1, "destination_lon": 3, "destination_lat": 4, "peak": true, "stops": ["a"], "level": 1}`
	for _, kind := range tableKinds {
		t.Run(kind.name, func(t *testing.T) {
			path := writeJSON(t, kind, filepath.Join(t.TempDir(), "trips"), tripSchema, tripRows, []string{bad})
			mem := tablestest.CheckedAllocator(t)
			if _, err := readPairs(path, mem); err == nil {
				t.Fatal("an origin_lon of 200 was read")
			}
			if n := mem.CurrentAlloc(); n != 0 {
				t.Errorf("%d bytes still allocated after the error", n)
			}
		})
	}
}
