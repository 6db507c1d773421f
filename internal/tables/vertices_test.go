package tables

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/pathflow/pathflow/internal/graph"
)

func TestWriteVerticesRoundTrip(t *testing.T) {
	vs := &graph.Vertices{OriginalID: []int64{10, 20, 35}, X: []int32{1, 2, 3}, Y: []int32{-4, -5, -6}}
	for _, f := range formats {
		path := filepath.Join(t.TempDir(), "vertices"+f.Ext())
		fi, err := WriteVertices(path, 3, vs, map[string]string{"k": "v"}, WithFormat(f), WithBatchRows(2))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Rows != 3 || fi.Path != path || fi.Bytes == 0 {
			t.Errorf("%v: file info %+v", f, fi)
		}
		cfg, err := NewConfig(nil)
		if err != nil {
			t.Fatal(err)
		}
		got, n, err := readVertices(path, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if n != 3 || !slices.Equal(got.OriginalID, vs.OriginalID) || !slices.Equal(got.X, vs.X) || !slices.Equal(got.Y, vs.Y) {
			t.Errorf("%v: read back n=%d %+v, want %+v", f, n, got, vs)
		}
	}
	if _, err := WriteVertices(filepath.Join(t.TempDir(), "v.parquet"), 4, vs, nil); err == nil {
		t.Error("3 original ids for 4 vertices were accepted")
	}
}
