package geoparquet

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/internal/nodetest"
	"github.com/pathflow/pathflow/internal/tables"
)

// jsReaders is the npm project of scripts/geoparquet/read.mjs: hyparquet,
// a Parquet reader with GeoParquet support of its own, and wkx, a WKB
// parser. Install it with npm ci --prefix scripts/geoparquet.
var jsReaders = &nodetest.Project{
	Caller: "geoparquet",
	Name:   "hyparquet and wkx",
	Plural: true,
	Dir:    "scripts/geoparquet",
	Script: "read.mjs",
}

// jsRead is what read.mjs prints.
type jsRead struct {
	Geo *string `json:"geo"`
	nodetest.Table
	WKX []any `json:"wkx"`
}

// readWithJS reads the GeoParquet file at path with read.mjs.
func readWithJS(t *testing.T, path string) jsRead {
	t.Helper()
	env := jsReaders.Require(t)
	cmd := exec.Command(env.Node, filepath.Join(env.Root, jsReaders.Dir, jsReaders.Script), path)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("read.mjs %s: %v\n%s", path, err, strings.TrimSpace(stderr.String()))
	}
	dec := json.NewDecoder(&stdout)
	dec.UseNumber()
	var out jsRead
	if err := dec.Decode(&out); err != nil {
		t.Fatalf("read.mjs %s: %v", path, err)
	}
	if err := out.ParseNumbers(false); err != nil {
		t.Fatal(err)
	}
	for i, g := range out.WKX {
		v, err := nodetest.Number(g, false)
		if err != nil {
			t.Fatal(err)
		}
		out.WKX[i] = v
	}
	return out
}

// TestJavaScriptReadersSeeTheRoutes reads routes written with each Parquet
// codec in JavaScript: hyparquet must find the geometry through the "geo"
// metadata and decode it to the expected GeoJSON LineStrings, wkx must
// parse the same from the WKB bytes, and the bbox column and leading
// columns must read back.
func TestJavaScriptReadersSeeTheRoutes(t *testing.T) {
	jsReaders.Require(t)
	for _, codec := range []tables.Compression{tables.Snappy, tables.Zstd, tables.LZ4, tables.Uncompressed} {
		t.Run(codec.String(), func(t *testing.T) {
			cfg, err := tables.NewConfig([]tables.Option{tables.WithCompression(codec), tables.WithBatchRows(2)})
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), "routes.parquet")
			if _, err := WriteFile(path, testLeading, nil, tables.ParquetEncoding{Delta: []string{"source"}}, cfg, appendRoutes(testRoutes)); err != nil {
				t.Fatal(err)
			}
			got := readWithJS(t, path)
			if got.Geo == nil {
				t.Fatal("hyparquet finds no geo metadata")
			}
			checkGeoMetadata(t, *got.Geo, Schema(testLeading, nil, tables.Parquet), wantFileBox)
			if want := []string{"source", "target", "length_m", "geometry", "bbox"}; !reflect.DeepEqual(got.Columns, want) {
				t.Fatalf("columns %v, want %v", got.Columns, want)
			}
			if len(got.Rows) != len(testRoutes) || len(got.WKX) != len(testRoutes) {
				t.Fatalf("%d rows and %d parsed by wkx, want %d", len(got.Rows), len(got.WKX), len(testRoutes))
			}
			for i, row := range got.Rows {
				r := testRoutes[i]
				if fmt.Sprint(row[0], row[1]) != fmt.Sprint(r.source, r.target) {
					t.Errorf("row %d: source, target %v %v, want %d %d", i, row[0], row[1], r.source, r.target)
				}
				want := geoJSONLine(wantLines[i])
				if !reflect.DeepEqual(floats(row[3]), want) {
					t.Errorf("row %d: hyparquet's geometry %v, want %v", i, row[3], want)
				}
				if !reflect.DeepEqual(floats(got.WKX[i]), want) {
					t.Errorf("row %d: wkx's geometry %v, want %v", i, got.WKX[i], want)
				}
				var wantBox any
				if b := wantBoxes[i]; b != nil {
					wantBox = map[string]any{"xmin": b.XMin, "ymin": b.YMin, "xmax": b.XMax, "ymax": b.YMax}
				}
				if !reflect.DeepEqual(floats(row[4]), wantBox) {
					t.Errorf("row %d: bbox %v, want %v", i, row[4], wantBox)
				}
			}
		})
	}
}

// geoJSONLine is the GeoJSON of a LineString, nil for none.
func geoJSONLine(line [2][]float64) any {
	if line[0] == nil {
		return nil
	}
	coords := make([]any, len(line[0]))
	for i := range line[0] {
		coords[i] = []any{line[0][i], line[1][i]}
	}
	return map[string]any{"type": "LineString", "coordinates": coords}
}

// floats turns the int64 values of decoded JSON into float64: JavaScript
// prints a whole-degree coordinate without a fraction.
func floats(v any) any {
	switch v := v.(type) {
	case int64:
		return float64(v)
	case []any:
		for i := range v {
			v[i] = floats(v[i])
		}
	case map[string]any:
		for k := range v {
			v[k] = floats(v[k])
		}
	}
	return v
}
