package tablestest

import (
	"io"
	"os"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// recordWriter is what the Arrow IPC and Parquet file writers have in
// common.
type recordWriter interface {
	Write(rec arrow.RecordBatch) error
	Close() error
}

// WriteParquet writes rec to path as Parquet the way another tool might,
// straight through pqarrow with props (nil for its defaults) rather than
// through the project's writers, and returns path.
func WriteParquet(t testing.TB, path string, rec arrow.RecordBatch, props *parquet.WriterProperties) string {
	t.Helper()
	return writeRecord(t, path, rec, func(f io.Writer) (recordWriter, error) {
		return pqarrow.NewFileWriter(rec.Schema(), f, props, pqarrow.DefaultWriterProps())
	})
}

// WriteArrowIPC writes rec to path as an Arrow IPC file, straight through
// the ipc package, and returns path.
func WriteArrowIPC(t testing.TB, path string, rec arrow.RecordBatch) string {
	t.Helper()
	return writeRecord(t, path, rec, func(f io.Writer) (recordWriter, error) {
		return ipc.NewFileWriter(f, ipc.WithSchema(rec.Schema()))
	})
}

// writeRecord creates path, writes rec with the writer open makes over it
// and closes both.
func writeRecord(t testing.TB, path string, rec arrow.RecordBatch, open func(io.Writer) (recordWriter, error)) string {
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
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}
