package tables

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// binaryTestSchema has a binary and a string column, each required and
// nullable.
var binaryTestSchema = arrow.NewSchema([]arrow.Field{
	{Name: "b", Type: arrow.BinaryTypes.Binary},
	{Name: "nb", Type: arrow.BinaryTypes.Binary, Nullable: true},
	{Name: "s", Type: arrow.BinaryTypes.String},
	{Name: "ns", Type: arrow.BinaryTypes.String, Nullable: true},
}, nil)

// binaryTestValues returns n values of a kind: all empty, tiny (up to 3
// bytes), up to 300 bytes, from about to several times long (the page
// size, within bounds), or sharing a long prefix (the statistics then
// compare far into them). Text values are letters and digits.
func binaryTestValues(rng *rand.Rand, kind, n int, long int64, text bool) [][]byte {
	long = min(max(long, 16), 4096)
	vals := make([][]byte, n)
	for i := range vals {
		var size int
		switch kind {
		case 0:
		case 1:
			size = rng.IntN(4)
		case 2:
			size = rng.IntN(301)
		case 3:
			size = int(long) + rng.IntN(2*int(long))
		case 4:
			size = 200 + rng.IntN(20)
		}
		v := make([]byte, size)
		for j := range v {
			switch {
			case kind == 4 && j < 190:
				v[j] = byte(j) | 0x40
			case text:
				v[j] = "abcdefghijklmnopqrstuvwxyz0123456789"[rng.IntN(36)]
			default:
				v[j] = byte(rng.Uint32())
			}
		}
		vals[i] = v
	}
	return vals
}

// binaryTestRecord makes a record of binaryTestSchema: the required
// columns hold every value, the nullable ones those valid.
func binaryTestRecord(rng *rand.Rand, kind int, valid []bool, long int64) arrow.RecordBatch {
	n := len(valid)
	bin, text := binaryTestValues(rng, kind, n, long, false), binaryTestValues(rng, kind, n, long, true)
	b := array.NewRecordBuilder(memory.DefaultAllocator, binaryTestSchema)
	defer b.Release()
	for i := range n {
		b.Field(0).(*array.BinaryBuilder).Append(bin[i])
		b.Field(2).(*array.StringBuilder).Append(string(text[i]))
		if valid[i] {
			b.Field(1).(*array.BinaryBuilder).Append(bin[n-1-i])
			b.Field(3).(*array.StringBuilder).Append(string(text[n-1-i]))
		} else {
			b.Field(1).AppendNull()
			b.Field(3).AppendNull()
		}
	}
	return b.NewRecordBatch()
}

// checkBinaryEncoders fails unless every column of binaryTestSchema is
// written by a binaryColumn under props.
func checkBinaryEncoders(t *testing.T, props *parquet.WriterProperties) {
	t.Helper()
	cw, err := newColumnsWriter(binaryTestSchema, io.Discard, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	if err != nil {
		t.Fatal(err)
	}
	for i, enc := range cw.own {
		if _, ok := enc.(*binaryColumn); !ok {
			t.Fatalf("column %s: encoder %T, want *binaryColumn", binaryTestSchema.Field(i).Name, enc)
		}
	}
}

// matchArrowGo writes recs through pqarrow and through columnsWriter and
// fails unless the files are the same bytes and arrow-go reads the values
// back.
func matchArrowGo(t *testing.T, name string, props *parquet.WriterProperties, recs ...arrow.RecordBatch) {
	t.Helper()
	want, got := writeBoth(t, props, recs...)
	if want == nil {
		t.Fatalf("%s: arrow-go failed to write the file", name)
	}
	if !bytes.Equal(want, got) {
		t.Fatalf("%s: %d bytes, arrow-go writes %d", name, len(got), len(want))
	}
	readBack(t, got, recs...)
}

// TestBinaryPagesMatchArrowGo writes binary and string values of every
// size against the page size (empty, tiny, larger than a page), with
// every null pattern, in pages and write batches small and large, with
// every codec, with statistics whole, cut by the size limit and off,
// through arrow-go's column writer and through the pages built here: the
// files must be the same bytes, and arrow-go's reader must read back
// every value written.
func TestBinaryPagesMatchArrowGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 15))
	lengths := []int{0, 1, 2, 9, 100, 1025, 2100}
	for _, c := range []struct {
		codec               compress.Compression
		page, batch, groups int64
		more                []parquet.WriterProperty
	}{
		{compress.Codecs.Uncompressed, 1 << 20, 1024, 1 << 20, nil},
		{compress.Codecs.Snappy, 64, 7, 3000, nil},
		{compress.Codecs.Zstd, 300, 64, 1 << 20, nil},
		{compress.Codecs.Lz4Raw, 1, 1, 777, nil},
		{compress.Codecs.Snappy, 4096, 100, 1000, []parquet.WriterProperty{parquet.WithMaxStatsSize(50)}},
		{compress.Codecs.Zstd, 10000, 1024, 2000, []parquet.WriterProperty{parquet.WithStats(false)}},
	} {
		props := parquet.NewWriterProperties(append([]parquet.WriterProperty{
			parquet.WithDictionaryDefault(false), parquet.WithCompression(c.codec),
			parquet.WithDataPageSize(c.page), parquet.WithBatchSize(c.batch), parquet.WithMaxRowGroupLength(c.groups),
		}, c.more...)...)
		checkBinaryEncoders(t, props)
		for _, n := range lengths {
			for kind := range 5 {
				if kind == 3 && n*int(min(c.page, 4096)) > 1<<20 {
					continue // a page a value: a hundred rows are enough
				}
				for pattern := range 9 {
					name := fmt.Sprintf("%v/page=%d/batch=%d/n=%d/kind=%d/nulls=%d", c.codec, c.page, c.batch, n, kind, pattern)
					rec := binaryTestRecord(rng, kind, deltaValidity(rng, pattern, n), c.page)
					matchArrowGo(t, name, props, rec)
					rec.Release()
				}
			}
		}
	}
}

// TestBinaryPagesOfSlices: a record that is a slice of a longer one (its
// offsets and validity bits start inside it) and records split into
// several row groups encode as arrow-go encodes them.
func TestBinaryPagesOfSlices(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 27))
	whole := binaryTestRecord(rng, 2, deltaValidity(rng, 6, 20000), 0)
	defer whole.Release()
	props := parquet.NewWriterProperties(parquet.WithDictionaryDefault(false), parquet.WithCompression(compress.Codecs.Snappy),
		parquet.WithDataPageSize(8192), parquet.WithBatchSize(100), parquet.WithMaxRowGroupLength(3001))
	for _, r := range [][2]int64{{0, 20000}, {3, 20000}, {5, 13}, {1, 9999}, {7777, 7778}, {11, 18003}} {
		part := whole.NewSlice(r[0], r[1])
		matchArrowGo(t, fmt.Sprintf("rows %v", r), props, part, whole)
		part.Release()
	}
}

// TestBinaryPagesSkipNullSlots: the slots of nulls may hold bytes (an
// array whose validity bits were set over values); neither writer writes
// them, nor counts them in the page size.
func TestBinaryPagesSkipNullSlots(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 77))
	const n = 3000
	vals := binaryTestValues(rng, 2, n, 0, false)
	bld := array.NewBinaryBuilder(memory.DefaultAllocator, arrow.BinaryTypes.Binary)
	defer bld.Release()
	for _, v := range vals {
		bld.Append(v)
	}
	full := bld.NewBinaryArray()
	defer full.Release()
	valid := deltaValidity(rng, 6, n)
	bitmap := make([]byte, (n+7)/8)
	nulls := 0
	for i, ok := range valid {
		if ok {
			bitmap[i/8] |= 1 << (i % 8)
		} else {
			nulls++
		}
	}
	data := array.NewData(arrow.BinaryTypes.Binary, n,
		[]*memory.Buffer{memory.NewBufferBytes(bitmap), full.Data().Buffers()[1], full.Data().Buffers()[2]}, nil, nulls, 0)
	defer data.Release()
	col := array.NewBinaryData(data)
	defer col.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "nb", Type: arrow.BinaryTypes.Binary, Nullable: true}}, nil)
	rec := array.NewRecordBatch(schema, []arrow.Array{col}, n)
	defer rec.Release()
	props := parquet.NewWriterProperties(parquet.WithDictionaryDefault(false), parquet.WithDataPageSize(2000), parquet.WithBatchSize(10))
	matchArrowGo(t, "null slots with bytes", props, rec)
}

// TestBinaryColumnFor: the pages are built here only for what they
// write, a flat PLAIN binary or string column without a dictionary in
// version 1 pages, without a page index or a bloom filter; the rest is
// arrow-go's.
func TestBinaryColumnFor(t *testing.T) {
	plain := []parquet.WriterProperty{parquet.WithDictionaryDefault(false)}
	for _, c := range []struct {
		name  string
		field arrow.Field
		props []parquet.WriterProperty
		ours  bool
	}{
		{"binary", arrow.Field{Name: "c", Type: arrow.BinaryTypes.Binary}, plain, true},
		{"nullable string", arrow.Field{Name: "c", Type: arrow.BinaryTypes.String, Nullable: true}, plain, true},
		{"large binary", arrow.Field{Name: "c", Type: arrow.BinaryTypes.LargeBinary}, plain, false},
		{"large string", arrow.Field{Name: "c", Type: arrow.BinaryTypes.LargeString}, plain, false},
		{"int32", arrow.Field{Name: "c", Type: arrow.PrimitiveTypes.Int32}, plain, false},
		{"dictionary", arrow.Field{Name: "c", Type: arrow.BinaryTypes.Binary}, nil, false},
		{"delta length", arrow.Field{Name: "c", Type: arrow.BinaryTypes.Binary},
			append(plain, parquet.WithEncodingFor("c", parquet.Encodings.DeltaLengthByteArray)), false},
		{"v2 pages", arrow.Field{Name: "c", Type: arrow.BinaryTypes.Binary},
			append(plain, parquet.WithDataPageVersion(parquet.DataPageV2)), false},
		{"page index", arrow.Field{Name: "c", Type: arrow.BinaryTypes.Binary},
			append(plain, parquet.WithPageIndexEnabledFor("c", true)), false},
		{"bloom filter", arrow.Field{Name: "c", Type: arrow.BinaryTypes.Binary},
			append(plain, parquet.WithBloomFilterEnabledFor("c", true)), false},
	} {
		props := parquet.NewWriterProperties(c.props...)
		pq, err := pqarrow.ToParquet(arrow.NewSchema([]arrow.Field{c.field}, nil), props, pqarrow.DefaultWriterProps())
		if err != nil {
			t.Fatal(err)
		}
		if got := binaryColumnFor(pq.Column(0), c.field, props) != nil; got != c.ours {
			t.Errorf("%s: built here %v, want %v", c.name, got, c.ours)
		}
	}
}

// wkbLineStrings returns line strings in WKB (little endian) of about
// size bytes each, taking total bytes in all: a random walk of points a
// few metres apart, as a route's geometry is.
func wkbLineStrings(rng *rand.Rand, size, total int) arrow.Array {
	bld := array.NewBinaryBuilder(memory.DefaultAllocator, arrow.BinaryTypes.Binary)
	defer bld.Release()
	points := (size - 9) / 16
	v := make([]byte, 9+16*points)
	for range total / len(v) {
		v[0] = 1
		binary.LittleEndian.PutUint32(v[1:], 2)
		binary.LittleEndian.PutUint32(v[5:], uint32(points))
		lon, lat := -75.5+rng.Float64()/2, 39+rng.Float64()
		for p := range points {
			lon += (rng.Float64() - 0.5) * 1e-4
			lat += (rng.Float64() - 0.5) * 1e-4
			binary.LittleEndian.PutUint64(v[9+16*p:], math.Float64bits(lon))
			binary.LittleEndian.PutUint64(v[17+16*p:], math.Float64bits(lat))
		}
		bld.Append(v)
	}
	return bld.NewArray()
}

// BenchmarkBinaryColumn writes four row groups of 64 MB of 10 KB WKB line
// strings (a routes file holds many), one nullable binary column
// compressed with Snappy, three ways: through the
// columns writer with the pages built here ("pages"), through the columns
// writer with arrow-go's column writer ("columns-arrow-go"), and through
// pqarrow's FileWriter ("pqarrow", which writes its pages straight to the
// sink where the columns writer buffers each chunk). ns/byte is the cost
// a byte of geometry.
func BenchmarkBinaryColumn(b *testing.B) {
	const total, rowGroups = 64 << 20, 4
	rng := rand.New(rand.NewPCG(1, 4))
	col := wkbLineStrings(rng, 10<<10, total)
	defer col.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "geometry", Type: arrow.BinaryTypes.Binary, Nullable: true}}, nil)
	rec := array.NewRecordBatch(schema, []arrow.Array{col}, int64(col.Len()))
	defer rec.Release()
	size := int64(col.(*array.Binary).ValueOffsets()[col.Len()])
	useFastSnappy()
	// A row group of 64 MB in write batches of 64 values, as the routes
	// files of geoparquet are written.
	props := parquet.NewWriterProperties(parquet.WithDictionaryDefault(false), parquet.WithCompression(compress.Codecs.Snappy),
		parquet.WithMaxRowGroupLength(int64(col.Len())), parquet.WithBatchSize(64))
	arrowProps := pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema())
	for _, writer := range []string{"pages", "columns-arrow-go", "pqarrow"} {
		b.Run(writer, func(b *testing.B) {
			b.SetBytes(rowGroups * size)
			for b.Loop() {
				var w recordWriter
				var err error
				if writer == "pqarrow" {
					w, err = pqarrow.NewFileWriter(schema, io.Discard, props, arrowProps)
				} else {
					var cw *columnsWriter
					cw, err = newColumnsWriter(schema, io.Discard, props, arrowProps)
					if err == nil && writer == "columns-arrow-go" {
						cw.own[0] = nil
					}
					w = cw
				}
				if err != nil {
					b.Fatal(err)
				}
				for range rowGroups {
					if err := w.Write(rec); err != nil {
						b.Fatal(err)
					}
				}
				if err := w.Close(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(rowGroups*size), "ns/byte")
		})
	}
}
