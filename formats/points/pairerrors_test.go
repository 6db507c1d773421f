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

// pairHeader is the header of a CSV file of trips.
const pairHeader = "id,origin_lon,origin_lat,destination_lon,destination_lat\n"

// TestPairCSVErrors checks each error of a CSV file of trips: a
// ParseError naming the file and the line, saying what is wrong and in
// which of the four coordinates.
func TestPairCSVErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, text string
		line       int64
		msg        string
	}{
		{"missing column", "id,origin_lon,origin_lat,destination_lon,dest_lat\n", 1, `no destination_lat (or to_lat) column (the file has columns "id", "origin_lon", "origin_lat", "destination_lon", "dest_lat")`},
		{"missing id", "from_lon,from_lat,to_lon,to_lat\n", 1, `no id column (the file has columns "from_lon", "from_lat", "to_lon", "to_lat")`},
		{"empty file", "", 0, "no header line (the file is empty)"},
		{"two origins", "id,origin_lon,From_Lon,origin_lat,destination_lon,destination_lat\n", 1, `columns "origin_lon" and "From_Lon" both give the origin_lon (or from_lon)`},
		{"empty id", pairHeader + "1,1,2,3,4\n,1,2,3,4\n", 3, "the id is empty"},
		{"origin lon not a number", pairHeader + "1,abc,2,3,4\n", 2, `origin_lon "abc" is not a number`},
		{"origin lat not a number", pairHeader + "1,1,2 2,3,4\n", 2, `origin_lat "2 2" is not a number`},
		{"destination lon not a number", pairHeader + "1,1,2,3,4\n2,1,2,x,4\n", 3, `destination_lon "x" is not a number`},
		{"destination lat not a number", pairHeader + "1,1,2,3,4e\n", 2, `destination_lat "4e" is not a number`},
		{"origin lon out of range", pairHeader + "1,180.5,2,3,4\n", 2, "origin_lon 180.5 is outside -180..180"},
		{"origin lat out of range", pairHeader + "1,1,-90.5,3,4\n", 2, "origin_lat -90.5 is outside -90..90"},
		{"destination lon out of range", "id,from_lon,from_lat,to_lon,to_lat\n1,1,2,-181,4\n", 2, "destination_lon -181 is outside -180..180"},
		{"destination lat out of range", pairHeader + "1,1,2,3,+Inf\n", 2, "destination_lat +Inf is outside -90..90"},
		{"short line", pairHeader + "1,1,2,3\n", 2, "4 fields, the header has 5"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, filepath.Join(dir, "trips.csv"), []byte(tc.text))
			tab, err := ReadPairs(path)
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

// TestPairTableErrors checks each error of a Parquet or Arrow IPC file of
// trips: the file and, for a bad value, its row in the whole file (the
// bad row sits in the second batch); a bad type is found before any row,
// even one that is bad too.
func TestPairTableErrors(t *testing.T) {
	good := []string{
		`{"id": "a", "origin_lon": 1, "origin_lat": 2, "destination_lon": 3, "destination_lat": 4}`,
		`{"id": "b", "origin_lon": 5, "origin_lat": 6, "destination_lon": 7, "destination_lat": 8}`,
	}
	schemaOf := func(id arrow.DataType, coord ...arrow.DataType) *arrow.Schema {
		fields := []arrow.Field{{Name: "id", Type: id, Nullable: true}}
		for k, name := range []string{"origin_lon", "origin_lat", "destination_lon", "destination_lat"} {
			dt := arrow.DataType(arrow.PrimitiveTypes.Float64)
			if k < len(coord) && coord[k] != nil {
				dt = coord[k]
			}
			fields = append(fields, arrow.Field{Name: name, Type: dt, Nullable: true})
		}
		return arrow.NewSchema(fields, nil)
	}
	strs := schemaOf(arrow.BinaryTypes.String)
	text := arrow.BinaryTypes.String
	for _, tc := range []struct {
		name   string
		schema *arrow.Schema
		bad    string // the third row, in a second batch
		msg    string // after "points: PATH: "
	}{
		{"null id", strs, `{"id": null, "origin_lon": 1, "origin_lat": 2, "destination_lon": 3, "destination_lat": 4}`, "row 3: the id is null"},
		{"empty id", strs, `{"id": "", "origin_lon": 1, "origin_lat": 2, "destination_lon": 3, "destination_lat": 4}`, "row 3: the id is empty"},
		{"origin lon out of range", strs, `{"id": "c", "origin_lon": -180.5, "origin_lat": 2, "destination_lon": 3, "destination_lat": 4}`, "row 3: origin_lon -180.5 is outside -180..180"},
		{"origin lat out of range", strs, `{"id": "c", "origin_lon": 1, "origin_lat": 95, "destination_lon": 3, "destination_lat": 4}`, "row 3: origin_lat 95 is outside -90..90"},
		{"destination lon out of range", strs, `{"id": "c", "origin_lon": 1, "origin_lat": 2, "destination_lon": 200, "destination_lat": 4}`, "row 3: destination_lon 200 is outside -180..180"},
		{"destination lat out of range", strs, `{"id": "c", "origin_lon": 1, "origin_lat": 2, "destination_lon": 3, "destination_lat": -91}`, "row 3: destination_lat -91 is outside -90..90"},
		{
			"missing column",
			arrow.NewSchema([]arrow.Field{{Name: "id", Type: text}, {Name: "from_lon", Type: arrow.PrimitiveTypes.Float64}, {Name: "from_lat", Type: arrow.PrimitiveTypes.Float64}, {Name: "to_lon", Type: arrow.PrimitiveTypes.Float64}}, nil),
			`{"id": "c", "from_lon": 1, "from_lat": 2, "to_lon": 3}`, `no destination_lat (or to_lat) column (the file has columns "id", "from_lon", "from_lat", "to_lon")`,
		},
		{"id of floats", schemaOf(arrow.PrimitiveTypes.Float64), `{"id": null, "origin_lon": 1, "origin_lat": 2, "destination_lon": 3, "destination_lat": 4}`, `column "id" is float64: an id must be an integer or a string`},
		{"origin lon as text", schemaOf(arrow.PrimitiveTypes.Int64, text), `{"id": null, "origin_lon": "1", "origin_lat": 2, "destination_lon": 3, "destination_lat": 4}`, `column "origin_lon" is utf8: an origin_lon must be floating point or an integer`},
		{"destination lat as text", schemaOf(arrow.PrimitiveTypes.Int64, nil, nil, nil, text), `{"id": null, "origin_lon": 1, "origin_lat": 2, "destination_lon": 3, "destination_lat": "x"}`, `column "destination_lat" is utf8: a destination_lat must be floating point or an integer`},
	} {
		for _, kind := range tableKinds {
			t.Run(kind.name+"/"+tc.name, func(t *testing.T) {
				first := good
				if tc.schema != strs {
					first = []string{tc.bad}
				}
				path := writeJSON(t, kind, filepath.Join(t.TempDir(), "trips"), tc.schema, first, []string{tc.bad})
				mem := tablestest.CheckedAllocator(t) // nothing held after an error either
				tab, err := readPairs(path, mem)
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

// TestBrokenPairTable checks that a file of trips with a table format's
// magic but no table in it, or no file at all, is an error naming it.
func TestBrokenPairTable(t *testing.T) {
	for _, magic := range []string{"ARROW1", "PAR1"} {
		path := writeFile(t, filepath.Join(t.TempDir(), "trips.csv"), []byte(magic+pairHeader+"1,2,3,4,5\n"))
		if _, err := ReadPairs(path); err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: %v, want an error naming the file", magic, err)
		}
	}
	if _, err := ReadPairs(filepath.Join(t.TempDir(), "none.csv")); err == nil || !strings.HasPrefix(err.Error(), "points: ") {
		t.Errorf("missing file: %v", err)
	}
}
