package tables

import (
	"fmt"
	"io"
	"os"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/pathflow/pathflow/internal/atomicfile"
)

// recordWriter is what ipc.FileWriter and pqarrow.FileWriter have in common.
type recordWriter interface {
	Write(rec arrow.RecordBatch) error
	Close() error
}

// TableWriter writes one table file in either format through a buffered,
// hashing stream; the result writers of package resultfiles encode their
// part files with it.
type TableWriter struct {
	rw     recordWriter
	out    *writeBehind
	digest *DigestWriter
	rows   int64
}

// ParquetEncoding picks, per column, how Parquet encodes values before
// compression: a column not listed is PLAIN.
type ParquetEncoding struct {
	// Delta columns hold ids and distances that change by small steps
	// between neighbouring rows: DELTA_BINARY_PACKED stores the bits of the
	// steps, which shrinks the data and the work left to the codec several
	// times over. A constant column (a result's source) costs next to
	// nothing.
	Delta []string
	// WriteBatch, unless 0, is how many values arrow-go's column writer
	// takes between two checks of a page's size (its default is 1,024).
	// A table of long values sets it low: 1,024 routes of 10 KB of WKB
	// make a 10 MB page, whose buffers the writer allocates afresh,
	// grows by copying and zeroes on release, for every page; at 64
	// values a page stays near the 1 MiB page size, and writing 100,000
	// Delaware routes allocates 1.2 GB instead of 2.9 GB. Pages hold the
	// same values either way; only where they end changes.
	WriteBatch int
}

// NewTableWriter starts a table of the given schema on dst, in the format,
// codec and batch size of cfg.
func NewTableWriter(dst io.Writer, schema *arrow.Schema, enc ParquetEncoding, cfg Config) (*TableWriter, error) {
	digest := NewDigestWriter(dst)
	buf := newWriteBehind(digest)
	var (
		rw  recordWriter
		err error
	)
	switch cfg.Format {
	case Arrow:
		rw, err = ipc.NewFileWriter(buf, ipcOptions(schema, cfg)...)
	case Parquet:
		arrowProps := pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema(), pqarrow.WithAllocator(cfg.Mem))
		props := parquetProperties(enc, cfg)
		if ownedColumns(schema) && ownsFile(schema, props) {
			rw, err = newColumnsWriter(schema, buf, props, arrowProps)
		} else {
			rw, err = pqarrow.NewFileWriter(schema, buf, props, arrowProps)
		}
	default:
		err = fmt.Errorf("unknown format %d", cfg.Format)
	}
	if err != nil {
		buf.Close()
		return nil, fmt.Errorf("tables: %w", err)
	}
	return &TableWriter{rw: rw, out: buf, digest: digest}, nil
}

func ipcOptions(schema *arrow.Schema, cfg Config) []ipc.Option {
	opts := []ipc.Option{
		ipc.WithSchema(schema),
		ipc.WithAllocator(cfg.Mem),
		ipc.WithCompressConcurrency(cfg.Concurrency),
	}
	switch cfg.Compression {
	case Zstd:
		opts = append(opts, ipc.WithZstd())
	case LZ4:
		opts = append(opts, ipc.WithLZ4())
	}
	return opts
}

func parquetProperties(enc ParquetEncoding, cfg Config) *parquet.WriterProperties {
	props := []parquet.WriterProperty{
		parquet.WithAllocator(cfg.Mem),
		parquet.WithMaxRowGroupLength(int64(cfg.BatchRows)),
		// A dictionary costs a hash per value and does not pay on ids
		// and distances; delta encoding does better on all of them.
		parquet.WithDictionaryDefault(false),
	}
	if enc.WriteBatch > 0 {
		props = append(props, parquet.WithBatchSize(int64(enc.WriteBatch)))
	}
	for _, col := range enc.Delta {
		if cfg.plainParquet {
			break
		}
		props = append(props, parquet.WithEncodingFor(col, parquet.Encodings.DeltaBinaryPacked))
	}
	switch cfg.Compression {
	case Zstd:
		props = append(props, parquet.WithCompression(compress.Codecs.Zstd), parquet.WithCompressionLevel(cfg.ZstdLevel))
	case LZ4:
		props = append(props, parquet.WithCompression(compress.Codecs.Lz4Raw))
	case Snappy:
		useFastSnappy()
		props = append(props, parquet.WithCompression(compress.Codecs.Snappy))
	default:
		props = append(props, parquet.WithCompression(compress.Codecs.Uncompressed))
	}
	return parquet.NewWriterProperties(props...)
}

// Write writes one record batch: one Arrow IPC record batch, or one Parquet
// row group.
func (w *TableWriter) Write(rec arrow.RecordBatch) error {
	if err := w.rw.Write(rec); err != nil {
		return fmt.Errorf("tables: %w", err)
	}
	w.rows += rec.NumRows()
	return nil
}

// AppendParquetMetadata adds a key to the key-value metadata in a Parquet
// file's footer, for a value known only once every row is written (such
// as GeoParquet's bounding box of the file). An Arrow IPC file writes its
// schema, metadata included, before the first batch: there it is an error.
// Unlike schema metadata, the key is not in the stored Arrow schema, and a
// key given twice is stored twice.
func (w *TableWriter) AppendParquetMetadata(key, value string) error {
	pw, ok := w.rw.(interface {
		AppendKeyValueMetadata(key, value string) error
	})
	if !ok {
		return fmt.Errorf("tables: footer metadata %q: only Parquet files have a footer to add it to", key)
	}
	if err := pw.AppendKeyValueMetadata(key, value); err != nil {
		return fmt.Errorf("tables: %w", err)
	}
	return nil
}

// Close finishes the file (footer, flush) and returns its rows, size and
// checksum; Path is left to the caller.
func (w *TableWriter) Close() (FileInfo, error) {
	err := w.rw.Close()
	// The stream is closed after a failed footer too: its goroutine ends.
	if cerr := w.out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return FileInfo{}, fmt.Errorf("tables: %w", err)
	}
	return FileInfo{Rows: w.rows, Bytes: w.digest.Bytes(), SHA256: w.digest.Sum()}, nil
}

// pendingFile is a table file written to a temporary, not yet committed.
type pendingFile struct {
	file *atomicfile.File
	info FileInfo
}

// writeTemp writes a table to a temporary for path: produce emits the record
// batches. The caller commits or aborts the result.
func writeTemp(path string, schema *arrow.Schema, enc ParquetEncoding, cfg Config, produce func(emit func(arrow.RecordBatch) error) error) (*pendingFile, error) {
	f, err := atomicfile.Create(path)
	if err != nil {
		return nil, fmt.Errorf("tables: %w", err)
	}
	ok := false
	defer func() {
		if !ok {
			f.Abort()
		}
	}()
	tw, err := NewTableWriter(f, schema, enc, cfg)
	if err != nil {
		return nil, err
	}
	if err := produce(tw.Write); err != nil {
		tw.Close()
		return nil, fmt.Errorf("%w (writing %s)", err, path)
	}
	info, err := tw.Close()
	if err != nil {
		return nil, fmt.Errorf("%w (writing %s)", err, path)
	}
	info.Path = path
	ok = true
	return &pendingFile{file: f, info: info}, nil
}

// WriteFile writes a table straight to path, for a file inside an output
// folder that its owner commits as a whole (which syncs every file once);
// on failure the file is removed.
func WriteFile(path string, schema *arrow.Schema, enc ParquetEncoding, cfg Config, produce func(emit func(arrow.RecordBatch) error) error) (info FileInfo, err error) {
	f, err := atomicfile.CreateIn(path) // *.partial until its folder commits
	if err != nil {
		return FileInfo{}, fmt.Errorf("tables: %w", err)
	}
	defer func() {
		if err == nil {
			atomicfile.StartWriteback(f) // the folder's commit syncs it
		}
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("tables: %w (writing %s)", cerr, path)
		}
		if err != nil {
			os.Remove(f.Name())
		}
	}()
	tw, err := NewTableWriter(f, schema, enc, cfg)
	if err != nil {
		return FileInfo{}, err
	}
	if err := produce(tw.Write); err != nil {
		tw.Close()
		return FileInfo{}, fmt.Errorf("%w (writing %s)", err, path)
	}
	if info, err = tw.Close(); err != nil {
		return FileInfo{}, fmt.Errorf("%w (writing %s)", err, path)
	}
	info.Path = path
	return info, nil
}
