package tables

import (
	"bytes"
	"path/filepath"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"

	"github.com/pathflow/pathflow/internal/graph"
)

func TestParseFormat(t *testing.T) {
	t.Parallel()
	cases := map[string]Format{"parquet": Parquet, "PARQUET": Parquet, " arrow ": Arrow, "ipc": Arrow, "feather": Arrow}
	for in, want := range cases {
		got, err := ParseFormat(in)
		if err != nil || got != want {
			t.Errorf("ParseFormat(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := ParseFormat("csv"); err == nil {
		t.Error("ParseFormat(csv) succeeded")
	}
	var f Format
	if err := f.Set("arrow"); err != nil || f != Arrow {
		t.Errorf("Set(arrow) gave %v, %v", f, err)
	}
	if Parquet.Ext() != ".parquet" || Arrow.Ext() != ".arrow" {
		t.Errorf("extensions %q %q", Parquet.Ext(), Arrow.Ext())
	}
}

func TestDetectFormat(t *testing.T) {
	t.Parallel()
	cases := []struct {
		data string
		want Format
		ok   bool
	}{
		{"ARROW1\x00\x00rest", Arrow, true},
		{"PAR1rest", Parquet, true},
		{"PAR1", Parquet, true},
		{"PAR", 0, false},
		{"", 0, false},
		{"c 9th DIMACS", 0, false},
	}
	for _, c := range cases {
		got, err := DetectFormat(bytes.NewReader([]byte(c.data)))
		if (err == nil) != c.ok || (c.ok && got != c.want) {
			t.Errorf("DetectFormat(%q) = %v, %v; want %v ok=%v", c.data, got, err, c.want, c.ok)
		}
	}
}

// TestParquetEncodings checks that the encodings meant for each graph column are
// the ones in the files (a misspelt column path would silently fall back to
// PLAIN), with the default codec.
func TestParquetEncodings(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	e := graph.NewEdgeList(3, 2)
	e.Add(0, 1, 4)
	e.Add(1, 2, 5)
	files := GraphFilesIn(dir, Parquet)
	if _, err := WriteGraph(files, e, &graph.Vertices{X: []int32{1, 2, 3}, Y: []int32{4, 5, 6}}, nil); err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string]parquet.Encoding{
		files.Edges:    {"src": delta, "dst": delta, "weight": delta},
		files.Vertices: {"id": delta, "original_id": delta, "x": delta, "y": delta},
	}
	for path, cols := range want {
		pf, err := file.OpenParquetFile(path, false)
		if err != nil {
			t.Fatal(err)
		}
		rg := pf.MetaData().RowGroup(0)
		for i := range rg.NumColumns() {
			cc, err := rg.ColumnChunk(i)
			if err != nil {
				t.Fatal(err)
			}
			col := cc.PathInSchema().String()
			enc, ok := cols[col]
			if !ok {
				t.Errorf("%s: unexpected column %s", filepath.Base(path), col)
				continue
			}
			if !slices.Contains(cc.Encodings(), enc) {
				t.Errorf("%s: column %s has encodings %v, want %v", filepath.Base(path), col, cc.Encodings(), enc)
			}
			if cc.Compression() != compress.Codecs.Snappy { // DefaultCompression(Parquet)
				t.Errorf("%s: column %s compressed with %v, want snappy", filepath.Base(path), col, cc.Compression())
			}
			delete(cols, col)
		}
		pf.Close()
		for col := range cols {
			t.Errorf("%s: no column %s", filepath.Base(path), col)
		}
	}
}

var delta = parquet.Encodings.DeltaBinaryPacked
