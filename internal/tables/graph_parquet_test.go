package tables

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/tables/tablestest"
)

// TestReadGraphParquetMatchesArrow reads one graph written in many row
// groups from Parquet on one to many goroutines and from Arrow IPC, the
// record-batch path: all give the same arcs and vertices.
func TestReadGraphParquetMatchesArrow(t *testing.T) {
	t.Parallel()
	rng := tablestest.NewRand(7)
	const n = 5000
	e := randomGraph(rng, n, 70000)
	orig := make([]int64, n)
	x, y := make([]int32, n), make([]int32, n)
	for v := range orig {
		orig[v] = int64(v)*3 + 1
		x[v], y[v] = rng.Int32(), rng.Int32()
	}
	vs := &graph.Vertices{OriginalID: orig, X: x, Y: y}
	arrowFiles := GraphFilesIn(t.TempDir(), Arrow)
	if _, err := WriteGraph(arrowFiles, e, vs, tablestest.Meta, WithFormat(Arrow), WithBatchRows(999)); err != nil {
		t.Fatal(err)
	}
	wantE, wantVs, wantMeta, err := ReadGraph(arrowFiles)
	if err != nil {
		t.Fatal(err)
	}
	pqFiles := GraphFilesIn(t.TempDir(), Parquet)
	if _, err := WriteGraph(pqFiles, e, vs, tablestest.Meta, WithBatchRows(999)); err != nil {
		t.Fatal(err)
	}
	for _, workers := range []int{1, 3, 16} {
		gotE, gotVs, gotMeta, err := ReadGraph(pqFiles, WithConcurrency(workers))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(gotE, wantE) || !reflect.DeepEqual(gotVs, wantVs) || !reflect.DeepEqual(gotMeta, wantMeta) {
			t.Errorf("%d workers: the Parquet tables read back differently from the Arrow ones", workers)
		}
		if !reflect.DeepEqual(gotE.Src, e.Src) || !reflect.DeepEqual(gotE.Weight, e.Weight) || !reflect.DeepEqual(gotVs.OriginalID, orig) {
			t.Errorf("%d workers: the arcs or ids differ from those written", workers)
		}
	}
}

// writeForeignParquet writes columns as another tool might: nullable
// fields, the given values and nulls, one row group per rowGroup rows.
func writeForeignParquet(t *testing.T, path string, fields []arrow.Field, cols []arrow.Array, rowGroup int64) {
	t.Helper()
	rec := array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, int64(cols[0].Len()))
	defer rec.Release()
	tablestest.WriteParquet(t, path, rec, parquet.NewWriterProperties(parquet.WithMaxRowGroupLength(rowGroup)))
}

func int32s(vals []int32, valid []bool) arrow.Array {
	b := array.NewInt32Builder(memory.DefaultAllocator)
	defer b.Release()
	b.AppendValues(vals, valid)
	return b.NewArray()
}

func int64s(vals []int64) arrow.Array {
	b := array.NewInt64Builder(memory.DefaultAllocator)
	defer b.Release()
	b.AppendValues(vals, nil)
	return b.NewArray()
}

func TestReadGraphParquetFromOtherWriters(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	nullable := func(names ...string) []arrow.Field {
		var fs []arrow.Field
		for _, n := range names {
			fs = append(fs, arrow.Field{Name: n, Type: arrow.PrimitiveTypes.Int32, Nullable: true})
		}
		return fs
	}
	verts := filepath.Join(dir, "vertices.parquet")
	writeForeignParquet(t, verts, []arrow.Field{{Name: ColID, Type: arrow.PrimitiveTypes.Int32, Nullable: true}, {Name: ColOriginalID, Type: arrow.PrimitiveTypes.Int64, Nullable: true}},
		[]arrow.Array{int32s([]int32{0, 1, 2}, nil), int64s([]int64{10, 20, 30})}, 2)
	src, dst, w := []int32{0, 1, 2, 0, 2}, []int32{1, 2, 0, 2, 1}, []int32{5, 6, 7, 8, 9}

	// Nullable columns without nulls, in two row groups, read.
	edges := filepath.Join(dir, "edges.parquet")
	writeForeignParquet(t, edges, nullable(ColSrc, ColDst, ColWeight), []arrow.Array{int32s(src, nil), int32s(dst, nil), int32s(w, nil)}, 3)
	e, vs, _, err := ReadGraph(GraphFiles{Edges: edges, Vertices: verts})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(e.Src, src) || !reflect.DeepEqual(e.Dst, dst) || !reflect.DeepEqual(e.Weight, w) || !reflect.DeepEqual(vs.OriginalID, []int64{10, 20, 30}) {
		t.Errorf("read arcs %v %v %v and ids %v", e.Src, e.Dst, e.Weight, vs.OriginalID)
	}

	// A null weight in the second row group is refused.
	withNull := filepath.Join(dir, "null.parquet")
	writeForeignParquet(t, withNull, nullable(ColSrc, ColDst, ColWeight),
		[]arrow.Array{int32s(src, nil), int32s(dst, nil), int32s(w, []bool{true, true, true, true, false})}, 3)
	if _, _, _, err := ReadGraph(GraphFiles{Edges: withNull, Vertices: verts}); err == nil || !strings.Contains(err.Error(), "nulls") {
		t.Errorf("a null weight reads with error %v", err)
	}

	// Ids out of row order are refused.
	badIDs := filepath.Join(dir, "badids.parquet")
	writeForeignParquet(t, badIDs, []arrow.Field{{Name: ColID, Type: arrow.PrimitiveTypes.Int32}, {Name: ColOriginalID, Type: arrow.PrimitiveTypes.Int64}},
		[]arrow.Array{int32s([]int32{0, 2, 1}, nil), int64s([]int64{0, 1, 2})}, 2)
	if _, _, _, err := ReadGraph(GraphFiles{Edges: edges, Vertices: badIDs}); err == nil || !strings.Contains(err.Error(), "vertex row 1 has id 2") {
		t.Errorf("ids out of order read with error %v", err)
	}

	// An arc beyond the vertices is refused, with Validate's message.
	far := filepath.Join(dir, "far.parquet")
	writeForeignParquet(t, far, nullable(ColSrc, ColDst, ColWeight), []arrow.Array{int32s([]int32{0, 3}, nil), int32s([]int32{1, 1}, nil), int32s([]int32{1, 1}, nil)}, 1)
	if _, _, _, err := ReadGraph(GraphFiles{Edges: far, Vertices: verts}); err == nil || !strings.Contains(err.Error(), "arc 1 (3 -> 1)") {
		t.Errorf("an arc beyond the vertices reads with error %v", err)
	}
}
