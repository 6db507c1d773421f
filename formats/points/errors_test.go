package points

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/pathflow/pathflow/formats"
	"github.com/pathflow/pathflow/internal/tables/tablestest"
)

// TestCSVErrors checks each error of a CSV places file: a ParseError
// naming the file and the line, with a message that says what is wrong.
func TestCSVErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, text string
		line       int64
		msg        string
	}{
		{"missing column", "id,lon,y\n1,2,3\n", 1, `no lat (or latitude) column (the file has columns "id", "lon", "y")`},
		{"missing id", "Lon,LAT\n1,2\n", 1, `no id column (the file has columns "Lon", "LAT")`},
		{"empty file", "", 0, "no header line (the file is empty)"},
		{"two longitudes", "id,lon,Longitude,lat\n", 1, `columns "lon" and "Longitude" both give the lon (or longitude)`},
		{"empty id", "id,lon,lat\n1,2,3\n,2,3\n", 3, "the id is empty"},
		{"empty quoted id", "id,lon,lat\n\"\",2,3\n", 2, "the id is empty"},
		{"lon not a number", "id,lon,lat\n1,2,3\n2,abc,3\n", 3, `lon "abc" is not a number`},
		{"lat not a number", "id,lon,lat\n1,2,3 4\n", 2, `lat "3 4" is not a number`},
		{"a long field is cut short", "id,lon,lat\n1,2," + strings.Repeat("9", 50) + "x\n", 2, `lat "` + strings.Repeat("9", 40) + `"... is not a number`},
		{"lon too large", "id,lon,lat\n1,180.5,3\n", 2, "lon 180.5 is outside -180..180"},
		{"lon too small", "id,lon,lat\n1,-181,3\n", 2, "lon -181 is outside -180..180"},
		{"lat too large", "id,lon,lat\n1,2,90.25\n", 2, "lat 90.25 is outside -90..90"},
		{"lat infinite", "id,lon,lat\n1,2,-Inf\n", 2, "lat -Inf is outside -90..90"},
		{"lat swapped with lon", "id,lat,lon\n1,-75.5,39.1\n1,-175.5,39.1\n", 3, "lat -175.5 is outside -90..90"},
		{"short line", "id,lon,lat\n1,2\n", 2, "2 fields, the header has 3"},
		{"bare quote", "id,lon,lat\n1\"x,2,3\n", 2, "a quote inside an unquoted field"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, filepath.Join(dir, "places.csv"), []byte(tc.text))
			tab, err := Read(path)
			var pe *formats.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("got %v, %v; want a ParseError", tab, err)
			}
			if pe.File != path || pe.Line != tc.line || !strings.HasPrefix(pe.Msg, tc.msg) {
				t.Errorf("error %q\nwant at %s:%d %q", err, path, tc.line, tc.msg)
			}
		})
	}
}

// TestTableErrors checks each error of a Parquet or Arrow IPC places
// file: the file and, for a bad value, its row in the whole file (the
// bad row sits in the second batch).
func TestTableErrors(t *testing.T) {
	good := []string{`{"id": "a", "lon": 1, "lat": 2}`, `{"id": "b", "lon": 3, "lat": 4}`}
	numbers := func(id, coord arrow.DataType) *arrow.Schema {
		return arrow.NewSchema([]arrow.Field{
			{Name: "id", Type: id, Nullable: true},
			{Name: "lon", Type: coord, Nullable: true},
			{Name: "lat", Type: coord, Nullable: true},
		}, nil)
	}
	strs := numbers(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Float64)
	for _, tc := range []struct {
		name   string
		schema *arrow.Schema
		bad    string // the third row, in a second batch
		msg    string // after "points: PATH: "
	}{
		{"null id", strs, `{"id": null, "lon": 1, "lat": 2}`, "row 3: the id is null"},
		{"empty id", strs, `{"id": "", "lon": 1, "lat": 2}`, "row 3: the id is empty"},
		{"lon out of range", strs, `{"id": "c", "lon": -180.5, "lat": 2}`, "row 3: lon -180.5 is outside -180..180"},
		{"lat out of range", strs, `{"id": "c", "lon": 1, "lat": 95}`, "row 3: lat 95 is outside -90..90"},
		{
			"missing column",
			arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.BinaryTypes.String}, {Name: "x", Type: arrow.PrimitiveTypes.Float64}, {Name: "lat", Type: arrow.PrimitiveTypes.Float64}}, nil),
			`{"id": "c", "x": 1, "lat": 2}`, `no lon (or longitude) column (the file has columns "id", "x", "lat")`,
		},
		{"id of floats", numbers(arrow.PrimitiveTypes.Float64, arrow.PrimitiveTypes.Float64), `{"id": 1.5, "lon": 1, "lat": 2}`, `column "id" is float64: an id must be an integer or a string`},
		{"id of booleans", numbers(arrow.FixedWidthTypes.Boolean, arrow.PrimitiveTypes.Float64), `{"id": true, "lon": 1, "lat": 2}`, `column "id" is bool: an id must be an integer or a string`},
		{"coordinates as text", numbers(arrow.PrimitiveTypes.Int64, arrow.BinaryTypes.String), `{"id": 1, "lon": "1", "lat": "2"}`, `column "lon" is utf8: a lon must be floating point or an integer`},
	} {
		for _, kind := range tableKinds {
			t.Run(kind.name+"/"+tc.name, func(t *testing.T) {
				first := good
				if tc.schema != strs {
					first = []string{tc.bad}
				}
				path := writeJSON(t, kind, filepath.Join(t.TempDir(), "places"), tc.schema, first, []string{tc.bad})
				mem := tablestest.CheckedAllocator(t) // nothing held after an error either
				tab, err := read(path, mem)
				if err == nil {
					tab.Release()
					t.Fatal("no error")
				}
				if want := "points: " + path + ": " + tc.msg; err.Error() != want {
					t.Errorf("error %q\nwant      %q", err, want)
				}
			})
		}
	}
}

// TestBrokenTable checks that a file with a table format's magic but no
// table in it is an error naming the file, not a CSV read.
func TestBrokenTable(t *testing.T) {
	for _, magic := range []string{"ARROW1", "PAR1"} {
		path := writeFile(t, filepath.Join(t.TempDir(), "places.csv"), []byte(magic+"id,lon,lat\n1,2,3\n"))
		if _, err := Read(path); err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: %v, want an error naming the file", magic, err)
		}
	}
	if _, err := Read(filepath.Join(t.TempDir(), "none.csv")); err == nil || !strings.HasPrefix(err.Error(), "points: ") {
		t.Errorf("missing file: %v", err)
	}
}
