package tables_test

import (
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"

	"github.com/pathflow/pathflow/internal/duckdbtest"
	"github.com/pathflow/pathflow/internal/readertest"
	"github.com/pathflow/pathflow/internal/tables"
)

// longRows is a table in the results' long layout (source, vertex,
// distance, parent, a metric): the columns whose pages this package
// builds, with nulls in runs and scattered, and distances and parents
// random enough that a column's chunk spans several 1 MiB pages.
type longRows struct {
	source, vertex, parent []int32
	distance, metric       []int64
	valid                  []bool
}

func makeLongRows(n int) longRows {
	rng := rand.New(rand.NewPCG(4, 21))
	r := longRows{
		source: make([]int32, n), vertex: make([]int32, n), parent: make([]int32, n),
		distance: make([]int64, n), metric: make([]int64, n), valid: make([]bool, n),
	}
	for i := range n {
		r.source[i] = int32(i / 70000)
		r.vertex[i] = int32(i % 70000)
		r.distance[i] = rng.Int64N(1 << 45)
		r.parent[i] = rng.Int32() - 1<<30
		r.metric[i] = int64(i)*3 - rng.Int64N(50)
		r.valid[i] = (i/5000)%7 != 3 && rng.IntN(10) != 0
	}
	return r
}

var longSchema = arrow.NewSchema([]arrow.Field{
	{Name: "source", Type: arrow.PrimitiveTypes.Int32},
	{Name: "vertex", Type: arrow.PrimitiveTypes.Int32},
	{Name: "distance", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "parent", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	{Name: "time", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
}, nil)

// record builds rows [lo, hi) as a record of longSchema.
func (r longRows) record(lo, hi int) arrow.RecordBatch {
	b := array.NewRecordBuilder(memory.DefaultAllocator, longSchema)
	defer b.Release()
	for i := lo; i < hi; i++ {
		b.Field(0).(*array.Int32Builder).Append(r.source[i])
		b.Field(1).(*array.Int32Builder).Append(r.vertex[i])
		if !r.valid[i] {
			b.Field(2).AppendNull()
			b.Field(3).AppendNull()
			b.Field(4).AppendNull()
			continue
		}
		b.Field(2).(*array.Int64Builder).Append(r.distance[i])
		b.Field(3).(*array.Int32Builder).Append(r.parent[i])
		b.Field(4).(*array.Int64Builder).Append(r.metric[i])
	}
	return b.NewRecordBatch()
}

// writeLongFile writes rows in two record batches, the first of several
// row groups.
func writeLongFile(t *testing.T, r longRows, codec tables.Compression) string {
	t.Helper()
	cfg, err := tables.NewConfig([]tables.Option{tables.WithFormat(tables.Parquet), tables.WithCompression(codec), tables.WithBatchRows(300000)})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "part-0.parquet")
	enc := tables.ParquetEncoding{Delta: []string{"vertex", "distance", "parent", "time"}}
	_, err = tables.WriteFile(path, longSchema, enc, cfg, func(emit func(arrow.RecordBatch) error) error {
		for _, cut := range [][2]int{{0, 320000}, {320000, len(r.valid)}} {
			rec := r.record(cut[0], cut[1])
			err := emit(rec)
			rec.Release()
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// The point is pages cut inside a chunk: check there are some.
	pf, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	pr, err := pf.RowGroup(0).GetColumnPageReader(2)
	if err != nil {
		t.Fatal(err)
	}
	pages := 0
	for pr.Next() {
		pages++
	}
	if pf.NumRowGroups() < 3 || pages < 2 {
		t.Fatalf("%d row groups, %d pages of distances in the first: the test wants several of each", pf.NumRowGroups(), pages)
	}
	return path
}

// checkLongRow compares one row as a reader returns it with the rows
// written.
func checkLongRow(t *testing.T, reader string, r longRows, i int, row []any) {
	t.Helper()
	want := []any{int64(r.source[i]), int64(r.vertex[i]), nil, nil, nil}
	if r.valid[i] {
		want[2], want[3], want[4] = r.distance[i], int64(r.parent[i]), r.metric[i]
	}
	for c := range want {
		if row[c] != want[c] {
			t.Fatalf("%s: row %d column %s is %v, want %v", reader, i, longSchema.Field(c).Name, row[c], want[c])
		}
	}
}

// TestDeltaPagesReadByDuckDB: DuckDB reads every value of a long-layout
// part file whose delta columns span several pages and row groups.
func TestDeltaPagesReadByDuckDB(t *testing.T) {
	duckdbtest.Require(t)
	const n = 350000
	r := makeLongRows(n)
	for _, codec := range []tables.Compression{tables.Snappy, tables.Zstd, tables.Uncompressed} {
		t.Run(codec.String(), func(t *testing.T) {
			path := duckdbtest.SQLString(writeLongFile(t, r, codec))
			res := duckdbtest.Query(t, "SELECT source, vertex, distance, parent, time FROM read_parquet("+path+", file_row_number = true) ORDER BY file_row_number")
			if len(res[0].Rows) != n {
				t.Fatalf("DuckDB reads %d rows, want %d", len(res[0].Rows), n)
			}
			for i, row := range res[0].Rows {
				checkLongRow(t, "DuckDB", r, i, row)
			}
		})
	}
}

// TestDeltaPagesReadByPolars: polars reads every value of the same file.
func TestDeltaPagesReadByPolars(t *testing.T) {
	readertest.Require(t)
	const n = 350000
	r := makeLongRows(n)
	tab := readertest.PolarsParquet(t, writeLongFile(t, r, tables.Snappy), false)
	if len(tab.Rows) != n {
		t.Fatalf("polars reads %d rows, want %d", len(tab.Rows), n)
	}
	for i, row := range tab.Rows {
		checkLongRow(t, "polars", r, i, row)
	}
}
