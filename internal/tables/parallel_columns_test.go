package tables

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// flatTestSchema has a column of every kind the result tables use,
// nullable and required, with schema metadata.
var flatTestSchema = arrow.NewSchema([]arrow.Field{
	{Name: "source", Type: arrow.PrimitiveTypes.Int32},
	{Name: "vertex", Type: arrow.PrimitiveTypes.Int32},
	{Name: "distance", Type: arrow.PrimitiveTypes.Int64, Nullable: true,
		Metadata: arrow.NewMetadata([]string{"unit"}, []string{"ms"})},
	{Name: "parent", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	{Name: "share", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	{Name: "reached", Type: arrow.FixedWidthTypes.Boolean},
	{Name: "id", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "blob", Type: arrow.BinaryTypes.Binary, Nullable: true},
}, func() *arrow.Metadata { m := arrow.NewMetadata([]string{"pathflow.test"}, []string{"1"}); return &m }())

// flatTestRecord makes a record of rows rows of flatTestSchema; nulls is
// the share of null cells in the nullable columns (0: none).
func flatTestRecord(t testing.TB, rng *rand.Rand, rows int, nulls float64) arrow.RecordBatch {
	t.Helper()
	b := array.NewRecordBuilder(memory.DefaultAllocator, flatTestSchema)
	defer b.Release()
	src := rng.Int32N(1000)
	for i := range rows {
		null := func() bool { return nulls > 0 && rng.Float64() < nulls }
		b.Field(0).(*array.Int32Builder).Append(src)
		b.Field(1).(*array.Int32Builder).Append(int32(i))
		if null() {
			b.Field(2).AppendNull()
		} else {
			b.Field(2).(*array.Int64Builder).Append(rng.Int64N(1 << 40))
		}
		if null() {
			b.Field(3).AppendNull()
		} else {
			b.Field(3).(*array.Int32Builder).Append(int32(i) - rng.Int32N(50))
		}
		if null() {
			b.Field(4).AppendNull()
		} else {
			b.Field(4).(*array.Float64Builder).Append(rng.Float64())
		}
		b.Field(5).(*array.BooleanBuilder).Append(rng.IntN(2) == 0)
		if null() {
			b.Field(6).AppendNull()
		} else {
			b.Field(6).(*array.StringBuilder).Append(fmt.Sprintf("place-%d", rng.IntN(1<<20)))
		}
		if null() {
			b.Field(7).AppendNull()
		} else {
			blob := make([]byte, rng.IntN(300))
			for j := range blob {
				blob[j] = byte(rng.IntN(4))
			}
			b.Field(7).(*array.BinaryBuilder).Append(blob)
		}
	}
	return b.NewRecordBatch()
}

// TestColumnsWriterMatchesPqarrow writes the same batches through
// pqarrow's FileWriter and through the column-parallel writer, with every
// codec, with and without delta encodings, with null-free and null-heavy
// batches and with a batch longer than a row group: the files must be
// identical byte for byte.
func TestColumnsWriterMatchesPqarrow(t *testing.T) {
	if !ownedColumns(flatTestSchema) {
		t.Fatal("the columns writer does not take the test schema")
	}
	rng := rand.New(rand.NewPCG(5, 40))
	var recs []arrow.RecordBatch
	for _, c := range []struct {
		rows  int
		nulls float64
	}{{3000, 0}, {2500, 0.3}, {1, 0}, {9000, 0.05}, {777, 1}} {
		recs = append(recs, flatTestRecord(t, rng, c.rows, c.nulls))
	}
	defer func() {
		for _, r := range recs {
			r.Release()
		}
	}()
	for _, comp := range []Compression{Snappy, Zstd, LZ4, Uncompressed} {
		for _, delta := range [][]string{nil, {"vertex", "distance", "parent"}} {
			t.Run(fmt.Sprintf("%v/delta=%d", comp, len(delta)), func(t *testing.T) {
				cfg, err := NewConfig([]Option{WithFormat(Parquet), WithCompression(comp), WithBatchRows(4096)})
				if err != nil {
					t.Fatal(err)
				}
				enc := ParquetEncoding{Delta: delta}
				arrowProps := pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema(), pqarrow.WithAllocator(cfg.Mem))
				var want, got bytes.Buffer
				ref, err := pqarrow.NewFileWriter(flatTestSchema, &want, parquetProperties(enc, cfg), arrowProps)
				if err != nil {
					t.Fatal(err)
				}
				par, err := newColumnsWriter(flatTestSchema, &got, parquetProperties(enc, cfg), arrowProps)
				if err != nil {
					t.Fatal(err)
				}
				for _, rec := range recs {
					if err := ref.Write(rec); err != nil {
						t.Fatal(err)
					}
					if err := par.Write(rec); err != nil {
						t.Fatal(err)
					}
				}
				for _, w := range []recordWriter{ref, par} {
					if err := w.(interface {
						AppendKeyValueMetadata(k, v string) error
					}).AppendKeyValueMetadata("footer", "late"); err != nil {
						t.Fatal(err)
					}
					if err := w.Close(); err != nil {
						t.Fatal(err)
					}
				}
				if !bytes.Equal(want.Bytes(), got.Bytes()) {
					t.Fatalf("the column-parallel file (%d bytes) differs from pqarrow's (%d bytes)", got.Len(), want.Len())
				}
			})
		}
	}
}

// TestOwnedColumns: flat fields, lists of a flat element and structs of
// flat fields go to the columns writer; deeper nesting and extension
// columns go to pqarrow's writer.
func TestOwnedColumns(t *testing.T) {
	wkb := arrow.NewMetadata([]string{"ARROW:extension:name"}, []string{"geoarrow.wkb"})
	for _, c := range []struct {
		field arrow.Field
		owned bool
	}{
		{arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int64}, true},
		{arrow.Field{Name: "a", Type: arrow.BinaryTypes.String, Nullable: true}, true},
		{arrow.Field{Name: "a", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32)}, true},
		{arrow.Field{Name: "a", Type: arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Float64})}, true},
		{arrow.Field{Name: "a", Type: arrow.ListOf(arrow.ListOf(arrow.PrimitiveTypes.Int32))}, false},
		{arrow.Field{Name: "a", Type: arrow.ListOf(arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Float64}))}, false},
		{arrow.Field{Name: "a", Type: arrow.StructOf(arrow.Field{Name: "x", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32)})}, false},
		{arrow.Field{Name: "a", Type: arrow.StructOf()}, false},
		{arrow.Field{Name: "a", Type: arrow.MapOf(arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int32)}, false},
		{arrow.Field{Name: "a", Type: arrow.BinaryTypes.Binary, Metadata: wkb}, false},
		{arrow.Field{Name: "a", Type: arrow.StructOf(arrow.Field{Name: "x", Type: arrow.BinaryTypes.Binary, Metadata: wkb})}, false},
	} {
		if got := ownedColumns(arrow.NewSchema([]arrow.Field{c.field}, nil)); got != c.owned {
			t.Errorf("%v: owned %v, want %v", c.field, got, c.owned)
		}
	}
}

// TestDefinitionLevelsOfSlices: a nullable column's levels are its
// validity bits, for slices starting anywhere in a byte of the bitmap and
// ending anywhere, with and without nulls, and the buffer reused from
// one call to the next.
func TestDefinitionLevelsOfSlices(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	b := array.NewInt64Builder(memory.DefaultAllocator)
	defer b.Release()
	for range 300 {
		if rng.IntN(3) == 0 {
			b.AppendNull()
		} else {
			b.Append(rng.Int64())
		}
	}
	whole := b.NewArray()
	defer whole.Release()
	c := &columnsWriter{defLevels: make([][]int16, 1), onesUpTo: make([]int, 1)}
	for _, r := range [][2]int{{0, 300}, {3, 300}, {5, 12}, {8, 16}, {7, 9}, {1, 1}, {13, 290}, {0, 299}} {
		s := array.NewSlice(whole, int64(r[0]), int64(r[1]))
		got := c.definitionLevels(0, s)
		if len(got) != s.Len() {
			t.Fatalf("slice %v: %d levels for %d values", r, len(got), s.Len())
		}
		for j := range got {
			if want := int16(1); s.IsNull(j) && got[j] != 0 || !s.IsNull(j) && got[j] != want {
				t.Fatalf("slice %v: level %d is %d, value null %v", r, j, got[j], s.IsNull(j))
			}
		}
		s.Release()
	}
}

// BenchmarkDefinitionLevels: the levels of 2^20 nullable values, a third
// null, per call.
func BenchmarkDefinitionLevels(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	bld := array.NewInt64Builder(memory.DefaultAllocator)
	defer bld.Release()
	for range 1 << 20 {
		if rng.IntN(3) == 0 {
			bld.AppendNull()
		} else {
			bld.Append(1)
		}
	}
	col := bld.NewArray()
	defer col.Release()
	c := &columnsWriter{defLevels: make([][]int16, 1), onesUpTo: make([]int, 1)}
	b.SetBytes(1 << 20)
	for b.Loop() {
		c.definitionLevels(0, col)
	}
}
