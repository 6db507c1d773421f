package resultfiles

import (
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/tables"
)

func TestVertexSetListsItsIDsInOrder(t *testing.T) {
	s := NewVertexSet(200)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for v := int32(g); v < 200; v += 7 {
				s.Add(v)
			}
		})
	}
	wg.Wait()
	s.AddAll([]int32{199, 0, 64, 63})
	var want []int32
	for v := range int32(200) {
		if v%7 < 4 || v == 199 || v == 64 || v == 63 {
			want = append(want, v)
		}
	}
	if got := s.IDs(); !slices.Equal(got, want) {
		t.Errorf("ids %v, want %v", got, want)
	}
}

func TestWriteVertexSubsetWritesTheWholeTablesRows(t *testing.T) {
	vs := &graph.Vertices{OriginalID: []int64{10, 20, 35, 47}, X: []int32{1, 2, 3, 4}, Y: []int32{-4, -5, -6, -7}}
	for _, f := range tableFormats {
		path := filepath.Join(t.TempDir(), "vertices"+f.Ext())
		fi, err := tables.WriteVertexSubset(path, 4, vs, []int32{1, 3}, map[string]string{"k": "v"}, tables.WithFormat(f), tables.WithBatchRows(1))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Rows != 2 || fi.Bytes == 0 {
			t.Errorf("%v: file info %+v", f, fi)
		}
	}
	for _, ids := range [][]int32{{1, 1}, {3, 1}, {-1}, {4}} {
		if _, err := tables.WriteVertexSubset(filepath.Join(t.TempDir(), "v.parquet"), 4, vs, ids, nil); err == nil {
			t.Errorf("ids %v were accepted", ids)
		}
	}
}
