package tables

import (
	"fmt"
	"runtime"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Compression is the codec applied to column data.
type Compression int

const (
	// Zstd is Zstandard: Parquet's ZSTD codec, Arrow IPC's ZSTD buffers.
	Zstd Compression = iota
	// LZ4 is Parquet's LZ4_RAW codec and Arrow IPC's LZ4_FRAME buffers:
	// faster, larger files.
	LZ4
	// Uncompressed stores column data as is.
	Uncompressed
	// Snappy is Parquet's SNAPPY codec (Arrow IPC has none).
	Snappy
)

// ParseCompression parses "zstd", "lz4", "snappy" or "none".
func ParseCompression(s string) (Compression, error) {
	switch s {
	case "zstd":
		return Zstd, nil
	case "lz4":
		return LZ4, nil
	case "snappy":
		return Snappy, nil
	case "none":
		return Uncompressed, nil
	}
	return 0, fmt.Errorf("tables: unknown compression %q (want zstd, lz4, snappy or none)", s)
}

// String returns the name ParseCompression takes.
func (c Compression) String() string {
	switch c {
	case Zstd:
		return "zstd"
	case LZ4:
		return "lz4"
	case Snappy:
		return "snappy"
	case Uncompressed:
		return "none"
	}
	return fmt.Sprintf("Compression(%d)", int(c))
}

// Option configures a writer or reader of this package.
type Option func(*config)

type config struct {
	mem         memory.Allocator
	format      Format
	compression Compression
	// compressionSet is true once WithCompression chose a codec; without
	// it the format's DefaultCompression applies.
	compressionSet bool
	zstdLevel      int
	batchRows      int
	partRows       int64
	concurrency    int
	// parquetReadMem is the allocator of Parquet decoding, which must be
	// garbage-collected (see WithAllocator); readers copy values out and
	// release each batch at once, so it holds about one batch.
	parquetReadMem memory.Allocator
	// plainParquet turns delta encoding off, so tests can decode with a
	// checked allocator.
	plainParquet bool
}

func defaultConfig() config {
	return config{
		mem:         memory.DefaultAllocator,
		format:      Parquet,
		zstdLevel:   DefaultZstdLevel,
		batchRows:   DefaultBatchRows,
		partRows:    DefaultPartRows,
		concurrency: runtime.GOMAXPROCS(0),

		parquetReadMem: memory.DefaultAllocator,
	}
}

func newConfig(opts []Option) (config, error) {
	cfg := defaultConfig()
	for _, opt := range opts {
		opt(&cfg)
	}
	if !cfg.compressionSet {
		cfg.compression = DefaultCompression(cfg.format)
	}
	switch {
	case cfg.mem == nil:
		return cfg, fmt.Errorf("tables: nil allocator")
	case !cfg.format.valid():
		return cfg, fmt.Errorf("tables: unknown format %d", cfg.format)
	case cfg.compression < Zstd || cfg.compression > Snappy:
		return cfg, fmt.Errorf("tables: unknown compression %d", cfg.compression)
	case cfg.compression == Snappy && cfg.format == Arrow:
		return cfg, fmt.Errorf("tables: Arrow IPC files have no snappy codec (use lz4, zstd or none)")
	case cfg.batchRows <= 0:
		return cfg, fmt.Errorf("tables: batch rows %d, want > 0", cfg.batchRows)
	case cfg.partRows <= 0:
		return cfg, fmt.Errorf("tables: part rows %d, want > 0", cfg.partRows)
	}
	cfg.concurrency = max(cfg.concurrency, 1)
	return cfg, nil
}

// WithAllocator sets the allocator of Arrow buffers (default
// memory.DefaultAllocator): those of every writer and of the Arrow IPC
// reader. Parquet decoding always uses memory.DefaultAllocator, since
// arrow-go's DELTA_BINARY_PACKED decoder leaves a buffer to the garbage
// collector.
func WithAllocator(mem memory.Allocator) Option { return func(c *config) { c.mem = mem } }

// WithFormat sets the format of written tables (default Parquet). Readers
// ignore it: they detect the format from the file.
func WithFormat(f Format) Option { return func(c *config) { c.format = f } }

// WithCompression sets the codec of written tables (default: the format's
// DefaultCompression).
func WithCompression(codec Compression) Option {
	return func(c *config) { c.compression, c.compressionSet = codec, true }
}

// WithZstdLevel sets the zstd level of Parquet output (default
// DefaultZstdLevel). Arrow IPC output always uses the codec's default level.
func WithZstdLevel(level int) Option { return func(c *config) { c.zstdLevel = level } }

// WithBatchRows sets the rows per record batch or row group (default
// DefaultBatchRows). Readers use it as their batch size.
func WithBatchRows(n int) Option { return func(c *config) { c.batchRows = n } }

// WithPartRows sets the candidate rows (source x target cells) per part
// file of a ResultSink (default DefaultPartRows).
func WithPartRows(n int64) Option { return func(c *config) { c.partRows = n } }

// WithConcurrency sets how many goroutines encode the part files of a
// ResultSink, compress Arrow IPC buffers and decode Parquet columns
// (default GOMAXPROCS). Output bytes do not depend on it.
func WithConcurrency(n int) Option { return func(c *config) { c.concurrency = n } }
