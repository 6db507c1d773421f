package tables

import (
	"io"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// BenchmarkDeltaBlocks encodes 2^20 int32 values of small random steps
// block by block; ns/op over 2^20 is the cost a value.
func BenchmarkDeltaBlocks(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	vals := make([]int32, 1<<20+1)
	for i := 1; i < len(vals); i++ {
		vals[i] = vals[i-1] + rng.Int32N(1000) - 100
	}
	var dst []byte
	b.SetBytes(4 << 20)
	for b.Loop() {
		dst = dst[:0]
		for i := 0; i+deltaBlockValues < len(vals); i += deltaBlockValues {
			dst, _, _ = appendDeltaBlock(dst, vals[i:i+deltaBlockValues+1])
		}
	}
}

// BenchmarkDeltaColumn writes one DELTA_BINARY_PACKED column of 2^20
// values, uncompressed, through the pages built here and through
// arrow-go's column writer: a parent-like int32 column with a third of
// its values null, and a distance-like int64 column without nulls.
func BenchmarkDeltaColumn(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 3))
	const n = 1 << 20
	for _, c := range []struct {
		name  string
		field arrow.Field
	}{
		{"int32-nulls", arrow.Field{Name: "parent", Type: arrow.PrimitiveTypes.Int32, Nullable: true}},
		{"int64", arrow.Field{Name: "distance", Type: arrow.PrimitiveTypes.Int64}},
	} {
		schema := arrow.NewSchema([]arrow.Field{c.field}, nil)
		bld := array.NewRecordBuilder(memory.DefaultAllocator, schema)
		for i := range n {
			switch f := bld.Field(0).(type) {
			case *array.Int32Builder:
				if rng.IntN(3) == 0 {
					f.AppendNull()
				} else {
					f.Append(int32(i) - rng.Int32N(600))
				}
			case *array.Int64Builder:
				f.Append(int64(i)*1000 + rng.Int64N(5000))
			}
		}
		rec := bld.NewRecordBatch()
		bld.Release()
		props := parquet.NewWriterProperties(parquet.WithDictionaryDefault(false), parquet.WithMaxRowGroupLength(n),
			parquet.WithEncodingFor(c.field.Name, parquet.Encodings.DeltaBinaryPacked))
		arrowProps := pqarrow.NewArrowWriterProperties()
		for _, writer := range []string{"pages", "arrow-go"} {
			b.Run(c.name+"/"+writer, func(b *testing.B) {
				for b.Loop() {
					var w recordWriter
					var err error
					if writer == "pages" {
						w, err = newColumnsWriter(schema, io.Discard, props, arrowProps)
					} else {
						w, err = pqarrow.NewFileWriter(schema, io.Discard, props, arrowProps)
					}
					if err != nil {
						b.Fatal(err)
					}
					if err := w.Write(rec); err != nil {
						b.Fatal(err)
					}
					if err := w.Close(); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/value")
			})
		}
		rec.Release()
	}
}
