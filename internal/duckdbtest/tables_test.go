package duckdbtest_test

// These tests read files written by pathflow's table writers and by
// arrow-go with DuckDB and compare what it sees with the Go values written.
//
// Arrow IPC files are not read here: DuckDB's core (1.5) has no Arrow IPC
// file reader, read_arrow comes from an extension that DuckDB would have to
// download, and query.mjs never downloads extensions.

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/pathflow/pathflow/internal/duckdbtest"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/tables"
)

// TestGraphTables writes the graph tables with every codec, in several row
// groups, and checks what DuckDB reads: counts, sums, every value in file
// order, the column types, that nothing is nullable, the row groups and
// codec, and the schema metadata.
func TestGraphTables(t *testing.T) {
	duckdbtest.Require(t)
	const n, m, batch = 40, 300, 64
	rng := rand.New(rand.NewPCG(1, 2))
	e := graph.NewEdgeList(n, m)
	for range m {
		e.Add(rng.Int32N(n), rng.Int32N(n), rng.Int32N(2001)-1000)
	}
	// Original ids beyond 2^53 check that no float64 rounds them; their sum
	// overflows int64.
	vs := &graph.Vertices{OriginalID: make([]int64, n), X: make([]int32, n), Y: make([]int32, n)}
	for v := range n {
		vs.OriginalID[v] = 1<<60 + rng.Int64N(1<<40)
		vs.X[v], vs.Y[v] = rng.Int32(), -rng.Int32()
	}
	meta := map[string]string{"pathflow.input_file": "roads.gr"}

	var weightSum int64
	edgeRows := make([][]any, m)
	for i := range m {
		weightSum += int64(e.Weight[i])
		edgeRows[i] = []any{int64(e.Src[i]), int64(e.Dst[i]), int64(e.Weight[i])}
	}
	idSum := new(big.Int)
	vertexRows := make([][]any, n)
	for v := range n {
		idSum.Add(idSum, big.NewInt(vs.OriginalID[v]))
		vertexRows[v] = []any{int64(v), vs.OriginalID[v], int64(vs.X[v]), int64(vs.Y[v])}
	}

	for _, c := range []struct {
		codec tables.Compression
		name  string // as Parquet metadata names it
	}{{tables.Zstd, "ZSTD"}, {tables.LZ4, "LZ4_RAW"}, {tables.Uncompressed, "UNCOMPRESSED"}} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			files := tables.GraphFilesIn(t.TempDir(), tables.Parquet)
			_, err := tables.WriteGraph(files, e, vs, meta, tables.WithCompression(c.codec), tables.WithBatchRows(batch))
			if err != nil {
				t.Fatal(err)
			}
			edges, vertices := duckdbtest.SQLString(files.Edges), duckdbtest.SQLString(files.Vertices)
			res := duckdbtest.Query(t,
				"SELECT count(*), sum(weight), count(*) FILTER (WHERE src IS NULL OR dst IS NULL OR weight IS NULL) FROM read_parquet("+edges+")",
				"SELECT src, dst, weight FROM read_parquet("+edges+", file_row_number = true) ORDER BY file_row_number",
				"DESCRIBE FROM read_parquet("+edges+")",
				"SELECT list(DISTINCT repetition_type) FROM parquet_schema("+edges+") WHERE type IS NOT NULL",
				"SELECT count(DISTINCT row_group_id), list(DISTINCT compression) FROM parquet_metadata("+edges+")",
				"SELECT decode(value) FROM parquet_kv_metadata("+edges+") WHERE decode(key) = 'pathflow.input_file'",
				"SELECT count(*), sum(original_id) FROM read_parquet("+vertices+")",
				"SELECT id, original_id, x, y FROM read_parquet("+vertices+", file_row_number = true) ORDER BY file_row_number",
				"DESCRIBE FROM read_parquet("+vertices+")",
			)
			want := [][][]any{
				{{int64(m), weightSum, int64(0)}},
				edgeRows,
				nil,
				{{[]any{"REQUIRED"}}},
				{{int64((m + batch - 1) / batch), []any{c.name}}},
				{{"roads.gr"}},
				nil,
				vertexRows,
				nil,
			}
			for i, r := range res {
				if want[i] != nil && !reflect.DeepEqual(r.Rows, want[i]) {
					t.Errorf("%s:\ngot  %v\nwant %v", r.Columns, r.Rows, want[i])
				}
			}
			if got := res[6].Rows[0]; got[0] != int64(n) || duckdbtest.Text(got[1]) != idSum.String() {
				t.Errorf("vertices: count %v, sum(original_id) %v; want %d and %s", got[0], got[1], n, idSum)
			}
			checkColumns(t, res[2], "src INTEGER", "dst INTEGER", "weight INTEGER")
			checkColumns(t, res[8], "id INTEGER", "original_id BIGINT", "x INTEGER", "y INTEGER")
		})
	}
}

// checkColumns compares the column_name and column_type of a DESCRIBE
// result with "name TYPE" pairs.
func checkColumns(t *testing.T, describe duckdbtest.Result, want ...string) {
	t.Helper()
	names, types := describe.Column("column_name"), describe.Column("column_type")
	got := make([]string, len(names))
	for i := range names {
		got[i] = fmt.Sprintf("%v %v", names[i], types[i])
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("DESCRIBE: %q, want %q", got, want)
	}
}

// TestArrowGoParquet writes a nullable int64 column and a nullable
// list<int32> column, the shapes of pathflow's distance and path columns,
// with arrow-go's pqarrow directly and checks what DuckDB reads.
func TestArrowGoParquet(t *testing.T) {
	duckdbtest.Require(t)
	const n = 100
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int32},
		{Name: "cost", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "vertices", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	ids := b.Field(0).(*array.Int32Builder)
	costs := b.Field(1).(*array.Int64Builder)
	lists := b.Field(2).(*array.ListBuilder)
	elems := lists.ValueBuilder().(*array.Int32Builder)

	rng := rand.New(rand.NewPCG(3, 4))
	extremes := []int64{math.MaxInt64, math.MinInt64, 1<<53 + 1, -(1<<53 + 1)}
	var (
		rows                   [][]any
		nullCosts, nullLists   int64
		costSum                = new(big.Int)
		elemCount, nullElement int64
	)
	for i := range n {
		ids.Append(int32(i))
		row := []any{int64(i), nil, nil}
		switch {
		case i%7 == 5:
			costs.AppendNull()
			nullCosts++
		default:
			c := rng.Int64N(1<<62) - 1<<61
			if i < len(extremes) {
				c = extremes[i]
			}
			costs.Append(c)
			costSum.Add(costSum, big.NewInt(c))
			row[1] = c
		}
		switch {
		case i%5 == 4:
			lists.AppendNull()
			nullLists++
		default:
			lists.Append(true)
			list := []any{} // every fifth is empty
			for k := range (i % 5) * 2 {
				if i == 1 && k == 0 {
					elems.AppendNull()
					list = append(list, nil)
					nullElement++
					continue
				}
				v := rng.Int32() - math.MaxInt32/2
				elems.Append(v)
				list = append(list, int64(v))
			}
			elemCount += int64(len(list))
			row[2] = list
		}
		rows = append(rows, row)
	}
	rec := b.NewRecordBatch()
	defer rec.Release()

	path := filepath.Join(t.TempDir(), "paths.parquet")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := pqarrow.NewFileWriter(schema, f,
		parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Zstd)),
		pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil { // closes f too
		t.Fatal(err)
	}

	res := duckdbtest.Query(t,
		"CREATE VIEW p AS FROM read_parquet("+duckdbtest.SQLString(path)+")",
		"SELECT count(*), count(*) FILTER (WHERE cost IS NULL), count(*) FILTER (WHERE vertices IS NULL), sum(len(vertices)) FROM p",
		"SELECT sum(cost), min(cost), max(cost) FROM p",
		"SELECT count(*) FROM (SELECT unnest(vertices) AS v FROM p) WHERE v IS NULL",
		"SELECT id, cost, vertices FROM p ORDER BY id",
		"DESCRIBE p",
	)
	if got, want := res[1].Rows, [][]any{{int64(n), nullCosts, nullLists, elemCount}}; !reflect.DeepEqual(got, want) {
		t.Errorf("count, null costs, null lists, elements: %v, want %v", got, want)
	}
	if got := res[2].Rows[0]; duckdbtest.Text(got[0]) != costSum.String() || got[1] != int64(math.MinInt64) || got[2] != int64(math.MaxInt64) {
		t.Errorf("sum, min, max of cost: %v, want %s, %d, %d", got, costSum, int64(math.MinInt64), int64(math.MaxInt64))
	}
	if got := res[3].Rows[0][0]; got != nullElement {
		t.Errorf("null list elements: %v, want %d", got, nullElement)
	}
	if !reflect.DeepEqual(res[4].Rows, rows) {
		t.Errorf("rows:\ngot  %v\nwant %v", res[4].Rows, rows)
	}
	checkColumns(t, res[5], "id INTEGER", "cost BIGINT", "vertices INTEGER[]")
}
