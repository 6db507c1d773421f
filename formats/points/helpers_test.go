package points

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// writeFile writes data to path and returns path.
func writeFile(t testing.TB, path string, data []byte) string {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// gzipped compresses text.
func gzipped(text string) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(text))
	zw.Close()
	return b.Bytes()
}

// fileKind is a table format the tests write, with its writer.
type fileKind struct {
	name  string
	write func(t testing.TB, path string, batches ...arrow.RecordBatch) string
}

var tableKinds = []fileKind{{"parquet", writeParquet}, {"arrow", writeArrow}}

// recordJSON builds a record batch of schema from rows, each a JSON
// object (null for a null); the caller releases it.
func recordJSON(t testing.TB, schema *arrow.Schema, rows ...string) arrow.RecordBatch {
	t.Helper()
	text := "[" + strings.Join(rows, ",") + "]"
	rec, _, err := array.RecordFromJSON(memory.DefaultAllocator, schema, strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// writeParquet writes the batches to path as one Parquet file, a row
// group per batch, with the Arrow schema stored the way pyarrow stores
// it, so that types Parquet lacks (large_string) read back as written.
func writeParquet(t testing.TB, path string, batches ...arrow.RecordBatch) string {
	t.Helper()
	return writeBatches(t, path, batches, func(w io.Writer) (batchWriter, error) {
		return pqarrow.NewFileWriter(batches[0].Schema(), w, nil, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	})
}

// writeArrow writes the batches to path as one Arrow IPC file, a record
// batch each, so that a reader meets several.
func writeArrow(t testing.TB, path string, batches ...arrow.RecordBatch) string {
	t.Helper()
	return writeBatches(t, path, batches, func(w io.Writer) (batchWriter, error) {
		return ipc.NewFileWriter(w, ipc.WithSchema(batches[0].Schema()))
	})
}

type batchWriter interface {
	Write(rec arrow.RecordBatch) error
	Close() error
}

func writeBatches(t testing.TB, path string, batches []arrow.RecordBatch, open func(io.Writer) (batchWriter, error)) string {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := open(f)
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range batches {
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// idValues returns the ids of a as int64s or strings, failing the test
// for other types.
func idValues(t testing.TB, a arrow.Array) any {
	t.Helper()
	switch c := a.(type) {
	case *array.Int64:
		return append([]int64{}, c.Int64Values()...)
	case *array.Int32:
		return append([]int32{}, c.Int32Values()...)
	case *array.Uint64:
		return append([]uint64{}, c.Uint64Values()...)
	case *array.String:
		s := make([]string, c.Len())
		for i := range s {
			s[i] = c.Value(i)
		}
		return s
	case *array.LargeString:
		s := make([]string, c.Len())
		for i := range s {
			s[i] = c.Value(i)
		}
		return s
	}
	t.Fatalf("ids of type %s", a.DataType())
	return nil
}

// writeJSON writes batches of JSON rows (see recordJSON) as a file of
// kind at path and returns path.
func writeJSON(t testing.TB, kind fileKind, path string, schema *arrow.Schema, batches ...[]string) string {
	t.Helper()
	recs := make([]arrow.RecordBatch, len(batches))
	for i, rows := range batches {
		recs[i] = recordJSON(t, schema, rows...)
		defer recs[i].Release()
	}
	return kind.write(t, path, recs...)
}
