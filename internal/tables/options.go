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

// Option configures a writer or reader of this package or of package
// resultfiles, which writes its tables through this one.
type Option func(*Config)

// Config is a set of Options applied over the defaults and checked
// (NewConfig): what a table writer or reader in another package reads to
// size its batches and parts and to allocate its buffers.
type Config struct {
	// Mem allocates Arrow buffers (WithAllocator).
	Mem memory.Allocator
	// Format is the format of written tables (WithFormat).
	Format Format
	// Compression is the codec of written tables (WithCompression).
	Compression Compression
	// compressionSet is true once WithCompression chose a codec; without
	// it the format's DefaultCompression applies.
	compressionSet bool
	// ZstdLevel is the Parquet zstd level (WithZstdLevel).
	ZstdLevel int
	// BatchRows bounds the rows of a record batch or row group
	// (WithBatchRows).
	BatchRows int
	// PartRows bounds the candidate rows of a result part (WithPartRows).
	PartRows int64
	// Concurrency is how many goroutines encode or decode at once
	// (WithConcurrency), at least 1.
	Concurrency int
	// parquetReadMem is the allocator of Parquet decoding, which must be
	// garbage-collected (see WithAllocator); readers copy values out and
	// release each batch at once, so it holds about one batch.
	parquetReadMem memory.Allocator
	// arcColumns are the edges table's columns after src, dst and weight
	// (WithArcColumns).
	arcColumns []ArcColumn
	// plainParquet turns delta encoding off, so tests can decode with a
	// checked allocator.
	plainParquet bool
}

func defaultConfig() Config {
	return Config{
		Mem:         memory.DefaultAllocator,
		Format:      Parquet,
		ZstdLevel:   DefaultZstdLevel,
		BatchRows:   DefaultBatchRows,
		PartRows:    DefaultPartRows,
		Concurrency: runtime.GOMAXPROCS(0),

		parquetReadMem: memory.DefaultAllocator,
	}
}

// NewConfig applies opts over the defaults and checks the result.
func NewConfig(opts []Option) (Config, error) {
	cfg := defaultConfig()
	for _, opt := range opts {
		opt(&cfg)
	}
	if !cfg.compressionSet {
		cfg.Compression = DefaultCompression(cfg.Format)
	}
	switch {
	case cfg.Mem == nil:
		return cfg, fmt.Errorf("tables: nil allocator")
	case !cfg.Format.valid():
		return cfg, fmt.Errorf("tables: unknown format %d", cfg.Format)
	case cfg.Compression < Zstd || cfg.Compression > Snappy:
		return cfg, fmt.Errorf("tables: unknown compression %d", cfg.Compression)
	case cfg.Compression == Snappy && cfg.Format == Arrow:
		return cfg, fmt.Errorf("tables: Arrow IPC files have no snappy codec (use lz4, zstd or none)")
	case cfg.BatchRows <= 0:
		return cfg, fmt.Errorf("tables: batch rows %d, want > 0", cfg.BatchRows)
	case cfg.PartRows <= 0:
		return cfg, fmt.Errorf("tables: part rows %d, want > 0", cfg.PartRows)
	}
	cfg.Concurrency = max(cfg.Concurrency, 1)
	return cfg, nil
}

// WithAllocator sets the allocator of Arrow buffers (default
// memory.DefaultAllocator): those of every writer and of the Arrow IPC
// reader. Parquet decoding always uses memory.DefaultAllocator, since
// arrow-go's DELTA_BINARY_PACKED decoder leaves a buffer to the garbage
// collector.
func WithAllocator(mem memory.Allocator) Option { return func(c *Config) { c.Mem = mem } }

// WithFormat sets the format of written tables (default Parquet). Readers
// ignore it: they detect the format from the file.
func WithFormat(f Format) Option { return func(c *Config) { c.Format = f } }

// WithCompression sets the codec of written tables (default: the format's
// DefaultCompression).
func WithCompression(codec Compression) Option {
	return func(c *Config) { c.Compression, c.compressionSet = codec, true }
}

// WithZstdLevel sets the zstd level of Parquet output (default
// DefaultZstdLevel). Arrow IPC output always uses the codec's default level.
func WithZstdLevel(level int) Option { return func(c *Config) { c.ZstdLevel = level } }

// WithBatchRows sets the rows per record batch or row group (default
// DefaultBatchRows). Readers use it as their batch size.
func WithBatchRows(n int) Option { return func(c *Config) { c.BatchRows = n } }

// WithPartRows sets the candidate rows (source x target cells) per part
// file of a resultfiles.ResultSink (default DefaultPartRows).
func WithPartRows(n int64) Option { return func(c *Config) { c.PartRows = n } }

// WithConcurrency sets how many goroutines encode the part files of a
// resultfiles.ResultSink, compress Arrow IPC buffers and decode Parquet columns
// (default GOMAXPROCS). Output bytes do not depend on it.
func WithConcurrency(n int) Option { return func(c *Config) { c.Concurrency = n } }

// WithPlainParquet writes Parquet without delta encoding: a test of a
// table writer uses it with WithParquetReadAllocator to check that the
// Parquet read path releases what it takes.
func WithPlainParquet() Option { return func(c *Config) { c.plainParquet = true } }

// WithParquetReadAllocator decodes Parquet with mem instead of
// memory.DefaultAllocator, for tests: only tables written WithPlainParquet
// allow a checked allocator, since arrow-go's delta decoder never frees one
// of its buffers.
func WithParquetReadAllocator(mem memory.Allocator) Option {
	return func(c *Config) { c.parquetReadMem = mem }
}
