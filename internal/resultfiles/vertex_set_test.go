package resultfiles

import (
	"path/filepath"
	"reflect"
	"slices"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
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
		want := vertexRows{id: []int32{1, 3}, originalID: []int64{20, 47}, x: []int32{2, 4}, y: []int32{-5, -7}}
		if got := readVertexRows(t, path); !reflect.DeepEqual(got, want) {
			t.Errorf("%v: rows %+v, want %+v", f, got, want)
		}
	}
	for _, ids := range [][]int32{{1, 1}, {3, 1}, {-1}, {4}} {
		if _, err := tables.WriteVertexSubset(filepath.Join(t.TempDir(), "v.parquet"), 4, vs, ids, nil); err == nil {
			t.Errorf("ids %v were accepted", ids)
		}
	}
}

// vertexRows are the columns of a vertices table with coordinates.
type vertexRows struct {
	id         []int32
	originalID []int64
	x, y       []int32
}

// readVertexRows reads the vertices table at path, which must have the
// columns of tables.VerticesSchema with coordinates and no nulls.
func readVertexRows(t *testing.T, path string) vertexRows {
	t.Helper()
	cfg, err := tables.NewConfig(nil)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := tables.OpenTable(path, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	want := tables.VerticesSchema(true, nil)
	idx, err := tables.ColumnIndices(tr.Schema(), want.Fields())
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var rows vertexRows
	err = tr.Scan(func(rec arrow.RecordBatch) error {
		for _, c := range idx {
			if n := rec.Column(c).NullN(); n != 0 {
				t.Errorf("%s: %d nulls in %s", path, n, rec.Schema().Field(c).Name)
			}
		}
		rows.id = append(rows.id, rec.Column(idx[0]).(*array.Int32).Int32Values()...)
		rows.originalID = append(rows.originalID, rec.Column(idx[1]).(*array.Int64).Int64Values()...)
		rows.x = append(rows.x, rec.Column(idx[2]).(*array.Int32).Int32Values()...)
		rows.y = append(rows.y, rec.Column(idx[3]).(*array.Int32).Int32Values()...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return rows
}
