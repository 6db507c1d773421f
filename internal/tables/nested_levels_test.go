package tables

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// nestedTestSchema has every nested shape the columns writer takes, with
// nullable and required lists, elements, structs and struct fields, beside
// flat columns: the shapes of a routes table (vertex ids, a bounding box,
// WKB) and more.
var nestedTestSchema = arrow.NewSchema([]arrow.Field{
	{Name: "source", Type: arrow.PrimitiveTypes.Int32},
	{Name: "vertices", Type: arrow.ListOfField(arrow.Field{Name: "element", Type: arrow.PrimitiveTypes.Int32}), Nullable: true},
	{Name: "ids", Type: arrow.ListOfField(arrow.Field{Name: "element", Type: arrow.PrimitiveTypes.Int64, Nullable: true})},
	{Name: "names", Type: arrow.ListOfField(arrow.Field{Name: "element", Type: arrow.BinaryTypes.String, Nullable: true}), Nullable: true},
	{Name: "geometry", Type: arrow.BinaryTypes.Binary, Nullable: true},
	{Name: "bbox", Type: arrow.StructOf(
		arrow.Field{Name: "xmin", Type: arrow.PrimitiveTypes.Float64},
		arrow.Field{Name: "ymin", Type: arrow.PrimitiveTypes.Float64},
		arrow.Field{Name: "xmax", Type: arrow.PrimitiveTypes.Float64},
		arrow.Field{Name: "ymax", Type: arrow.PrimitiveTypes.Float64}), Nullable: true},
	{Name: "pair", Type: arrow.StructOf(
		arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		arrow.Field{Name: "b", Type: arrow.BinaryTypes.String, Nullable: true},
		arrow.Field{Name: "c", Type: arrow.FixedWidthTypes.Boolean})},
}, nil)

// nestedTestRecord makes rows rows of nestedTestSchema; nulls is the
// share of nulls wherever the schema allows one, and long the share of
// rows with long lists and values.
func nestedTestRecord(rng *rand.Rand, rows int, nulls, long float64) arrow.RecordBatch {
	b := array.NewRecordBuilder(memory.DefaultAllocator, nestedTestSchema)
	defer b.Release()
	null := func() bool { return nulls > 0 && rng.Float64() < nulls }
	length := func() int {
		if rng.Float64() < long {
			return rng.IntN(3000)
		}
		return rng.IntN(4)
	}
	for i := range rows {
		b.Field(0).(*array.Int32Builder).Append(int32(i))

		vertices := b.Field(1).(*array.ListBuilder)
		if null() {
			vertices.AppendNull()
		} else {
			vertices.Append(true)
			for range length() {
				vertices.ValueBuilder().(*array.Int32Builder).Append(rng.Int32N(1 << 20))
			}
		}

		ids := b.Field(2).(*array.ListBuilder)
		ids.Append(true)
		for range length() {
			if null() {
				ids.ValueBuilder().AppendNull()
			} else {
				ids.ValueBuilder().(*array.Int64Builder).Append(rng.Int64())
			}
		}

		names := b.Field(3).(*array.ListBuilder)
		if null() {
			names.AppendNull()
		} else {
			names.Append(true)
			for range rng.IntN(3) {
				if null() {
					names.ValueBuilder().AppendNull()
				} else {
					names.ValueBuilder().(*array.StringBuilder).Append(fmt.Sprint("n", rng.IntN(100)))
				}
			}
		}

		if null() {
			b.Field(4).AppendNull()
		} else {
			blob := make([]byte, length()*16)
			for j := range blob {
				blob[j] = byte(rng.IntN(8))
			}
			b.Field(4).(*array.BinaryBuilder).Append(blob)
		}

		bbox := b.Field(5).(*array.StructBuilder)
		if null() {
			bbox.AppendNull()
		} else {
			bbox.Append(true)
			for k := range 4 {
				bbox.FieldBuilder(k).(*array.Float64Builder).Append(rng.NormFloat64())
			}
		}

		pair := b.Field(6).(*array.StructBuilder)
		pair.Append(true)
		if null() {
			pair.FieldBuilder(0).AppendNull()
		} else {
			pair.FieldBuilder(0).(*array.Int32Builder).Append(rng.Int32())
		}
		if null() {
			pair.FieldBuilder(1).AppendNull()
		} else {
			pair.FieldBuilder(1).(*array.StringBuilder).Append(fmt.Sprint("p", rng.IntN(1000)))
		}
		pair.FieldBuilder(2).(*array.BooleanBuilder).Append(rng.IntN(2) == 0)
	}
	return b.NewRecordBatch()
}

// TestNestedColumnsMatchPqarrow writes batches of lists and structs,
// whole and sliced (so that lists start past their values' first offset
// and structs past their fields' first row), through pqarrow's FileWriter
// and through the columns writer: the files must be the same bytes, with
// every codec, with pages, write batches and row groups cut small and
// large, and with the vertex lists' pages built here or, delta encoded,
// by arrow-go.
func TestNestedColumnsMatchPqarrow(t *testing.T) {
	if !ownedColumns(nestedTestSchema) {
		t.Fatal("the columns writer does not take the nested test schema")
	}
	rng := rand.New(rand.NewPCG(7, 31))
	var recs []arrow.RecordBatch
	for _, c := range []struct {
		rows        int
		nulls, long float64
	}{{1000, 0, 0}, {1500, 0.3, 0.01}, {1, 0, 0}, {300, 0, 0.2}, {200, 1, 0}, {2000, 0.05, 0.005}} {
		recs = append(recs, nestedTestRecord(rng, c.rows, c.nulls, c.long))
	}
	whole := recs[len(recs)-1]
	recs = append(recs, whole.NewSlice(3, 1203), whole.NewSlice(1701, 1702), whole.NewSlice(999, 999))
	defer func() {
		for _, r := range recs {
			r.Release()
		}
	}()
	useFastSnappy()
	for _, c := range []struct {
		codec               compress.Compression
		page, batch, groups int64
		delta               bool
	}{
		{compress.Codecs.Snappy, 1 << 20, 64, 1 << 16, false},
		{compress.Codecs.Snappy, 1 << 20, 64, 700, true},
		{compress.Codecs.Zstd, 4096, 64, 700, false},
		{compress.Codecs.Uncompressed, 64, 5, 1 << 16, false},
		{compress.Codecs.Uncompressed, 1, 1, 333, false},
		{compress.Codecs.Lz4Raw, 3000, 1024, 1 << 16, true},
	} {
		t.Run(fmt.Sprintf("%v/page=%d/batch=%d/rowgroup=%d/delta=%v", c.codec, c.page, c.batch, c.groups, c.delta), func(t *testing.T) {
			opts := []parquet.WriterProperty{
				parquet.WithDictionaryDefault(false), parquet.WithCompression(c.codec),
				parquet.WithDataPageSize(c.page), parquet.WithBatchSize(c.batch), parquet.WithMaxRowGroupLength(c.groups),
			}
			if c.delta {
				for _, col := range []string{"source", "vertices.list.element", "ids.list.element"} {
					opts = append(opts, parquet.WithEncodingFor(col, parquet.Encodings.DeltaBinaryPacked))
				}
			}
			props := parquet.NewWriterProperties(opts...)
			arrowProps := pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema())
			var want, got bytes.Buffer
			ref, err := pqarrow.NewFileWriter(nestedTestSchema, &want, props, arrowProps)
			if err != nil {
				t.Fatal(err)
			}
			ours, err := newColumnsWriter(nestedTestSchema, &got, props, arrowProps)
			if err != nil {
				t.Fatal(err)
			}
			// The vertex lists' pages are built here unless delta encoded.
			if _, built := ours.own[1].(*listColumn); built == c.delta {
				t.Fatalf("the vertex lists built here: %v, delta encoded: %v", built, c.delta)
			}
			for _, rec := range recs {
				if err := ref.Write(rec); err != nil {
					t.Fatal(err)
				}
				if err := ours.Write(rec); err != nil {
					t.Fatal(err)
				}
			}
			for _, w := range []recordWriter{ref, ours} {
				if err := w.Close(); err != nil {
					t.Fatal(err)
				}
			}
			if !bytes.Equal(want.Bytes(), got.Bytes()) {
				t.Fatalf("the columns writer's file (%d bytes) differs from pqarrow's (%d bytes)", got.Len(), want.Len())
			}
		})
	}
}

// TestNestedColumnsRefuseNullsInRequiredFields: a list whose elements or
// a struct whose field the schema says are never null, holding a null, is
// an error, not a file with levels no reader expects.
func TestNestedColumnsRefuseNullsInRequiredFields(t *testing.T) {
	lb := array.NewListBuilder(memory.DefaultAllocator, arrow.PrimitiveTypes.Int32)
	defer lb.Release()
	lb.Append(true)
	lb.ValueBuilder().AppendNull()
	list := lb.NewListArray()
	defer list.Release()
	listOfRequired := array.NewListData(array.NewData(arrow.ListOfField(arrow.Field{Name: "element", Type: arrow.PrimitiveTypes.Int32}),
		list.Len(), list.Data().Buffers(), list.Data().Children(), 0, 0))
	defer listOfRequired.Release()
	if _, err := listLevels(listOfRequired, true, nil, nil); err == nil {
		t.Error("a null in a list of required elements was not refused")
	}

	sb := array.NewStructBuilder(memory.DefaultAllocator, arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Float64, Nullable: true}))
	defer sb.Release()
	sb.Append(true)
	sb.FieldBuilder(0).AppendNull()
	st := sb.NewStructArray()
	defer st.Release()
	required := array.NewStructData(array.NewData(arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Float64}),
		st.Len(), st.Data().Buffers(), st.Data().Children(), 0, 0))
	defer required.Release()
	if _, err := structLevels(required, true, 0, nil); err == nil {
		t.Error("a null in a required struct field was not refused")
	}
}
