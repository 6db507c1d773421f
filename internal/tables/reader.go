package tables

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// TableReader reads the record batches of one table file in either format.
type TableReader struct {
	path   string
	schema *arrow.Schema
	// rows is the table's row count, or -1 when the format does not say
	// it up front (Arrow IPC).
	rows  int64
	next  func() (arrow.RecordBatch, error)
	close func() error
}

// OpenTable opens the table file at path, detecting its format. Corrupt
// files give errors, not panics.
func OpenTable(path string, cfg Config) (tr *TableReader, err error) {
	defer RecoverInto(&err, path)
	format, err := DetectFileFormat(path)
	if err != nil {
		return nil, err
	}
	switch format {
	case Arrow:
		tr, err = openArrow(path, cfg)
	default:
		tr, err = openParquet(path, cfg)
	}
	if err != nil {
		return nil, fmt.Errorf("tables: %s: %w", path, err)
	}
	tr.path = path
	return tr, nil
}

func openArrow(path string, cfg Config) (*TableReader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	r, err := ipc.NewFileReader(f, ipc.WithAllocator(cfg.Mem))
	if err != nil {
		f.Close()
		return nil, err
	}
	i := 0
	return &TableReader{
		schema: r.Schema(),
		rows:   -1,
		next: func() (arrow.RecordBatch, error) {
			if i == r.NumRecords() {
				return nil, io.EOF
			}
			i++
			return r.RecordBatchAt(i - 1)
		},
		close: func() error { return errors.Join(r.Close(), f.Close()) },
	}, nil
}

func openParquet(path string, cfg Config) (*TableReader, error) {
	mem := cfg.parquetReadMem
	pf, err := file.OpenParquetFile(path, false, file.WithReadProps(parquet.NewReaderProperties(mem)))
	if err != nil {
		return nil, err
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{
		Parallel:  cfg.Concurrency > 1,
		BatchSize: int64(cfg.BatchRows),
	}, mem)
	if err != nil {
		pf.Close()
		return nil, err
	}
	schema, err := fr.Schema()
	if err != nil {
		pf.Close()
		return nil, err
	}
	tr := &TableReader{schema: withoutFieldIDs(schema), rows: pf.NumRows(), close: pf.Close}
	if pf.NumRowGroups() == 0 {
		tr.next = func() (arrow.RecordBatch, error) { return nil, io.EOF }
		return tr, nil
	}
	rr, err := fr.GetRecordReader(context.Background(), nil, nil)
	if err != nil {
		pf.Close()
		return nil, err
	}
	tr.next = func() (arrow.RecordBatch, error) {
		if !rr.Next() {
			if err := rr.Err(); err != nil && !errors.Is(err, io.EOF) {
				return nil, err
			}
			return nil, io.EOF
		}
		rec := rr.RecordBatch()
		rec.Retain() // the reader releases it on the next call
		return rec, nil
	}
	tr.close = func() error {
		rr.Release()
		return pf.Close()
	}
	return tr, nil
}

// Next returns the next record batch, which the caller releases, or io.EOF.
func (tr *TableReader) Next() (rec arrow.RecordBatch, err error) {
	defer RecoverInto(&err, tr.path)
	rec, err = tr.next()
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("tables: %s: %w", tr.path, err)
	}
	return rec, err
}

// Close releases the reader and closes the file.
func (tr *TableReader) Close() error {
	if err := tr.close(); err != nil {
		return fmt.Errorf("tables: %s: %w", tr.path, err)
	}
	return nil
}

// Schema is the table's schema, Parquet field ids dropped.
func (tr *TableReader) Schema() *arrow.Schema { return tr.schema }

// Scan calls fn with every record batch in order; fn must not keep the
// record past its return without retaining it.
func (tr *TableReader) Scan(fn func(rec arrow.RecordBatch) error) error {
	for {
		rec, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		err = fn(rec)
		rec.Release()
		if err != nil {
			return fmt.Errorf("%w (reading %s)", err, tr.path)
		}
	}
}

// RecoverInto, deferred, turns a panic inside the Arrow and Parquet decoders, which
// some corrupt inputs still provoke, into an error naming the file.
func RecoverInto(err *error, path string) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("tables: %s: corrupt table: %v", path, r)
	}
}

// withoutFieldIDs drops the "PARQUET:field_id" field metadata the Parquet
// reader adds, so a schema reads back the same from both formats.
func withoutFieldIDs(s *arrow.Schema) *arrow.Schema {
	fields := s.Fields()
	for i, f := range fields {
		md := f.Metadata
		if md.FindKey(parquetFieldID) < 0 {
			continue
		}
		kept := make(map[string]string, md.Len())
		for j, k := range md.Keys() {
			if k != parquetFieldID {
				kept[k] = md.Values()[j]
			}
		}
		fields[i].Metadata = arrow.Metadata{}
		if len(kept) > 0 {
			fields[i].Metadata = arrow.MetadataFrom(kept)
		}
	}
	md := s.Metadata()
	return arrow.NewSchema(fields, &md)
}

const parquetFieldID = "PARQUET:field_id"

// ScanTable opens the table at path in either format, checks it has the
// columns of want (in any order), and calls fn for each record batch with
// the index of every wanted column and the non-null required columns
// checked. It returns the table's row count hint and schema metadata.
func ScanTable(path string, want *arrow.Schema, required []int, opts []Option, fn func(rec arrow.RecordBatch, idx []int) error) (rowsHint int64, meta map[string]string, err error) {
	cfg, err := NewConfig(opts)
	if err != nil {
		return 0, nil, err
	}
	defer RecoverInto(&err, path)
	tr, err := OpenTable(path, cfg)
	if err != nil {
		return 0, nil, err
	}
	defer tr.Close()
	idx, err := ColumnIndices(tr.schema, want.Fields())
	if err != nil {
		return 0, nil, fmt.Errorf("%w (in %s)", err, path)
	}
	nonNull := make([]int, len(required))
	for i, r := range required {
		nonNull[i] = idx[r]
	}
	err = tr.Scan(func(rec arrow.RecordBatch) error {
		if err := NoNulls(rec, nonNull...); err != nil {
			return err
		}
		return fn(rec, idx)
	})
	if err != nil {
		return 0, nil, err
	}
	return tr.rows, UserMeta(tr.schema), nil
}
