package tables

import (
	"bytes"
	"testing"

	"github.com/apache/arrow-go/v18/parquet"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/tables/tablestest"
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
	delta := tablestest.Delta
	want := map[string]map[string]parquet.Encoding{
		files.Edges:    {"src": delta, "dst": delta, "weight": delta},
		files.Vertices: {"id": delta, "original_id": delta, "x": delta, "y": delta},
	}
	tablestest.CheckParquetEncodings(t, want)
}
