package tables

// The defaults of every writer option, for the library and the commands
// alike: the commands' keys (output.batch_rows, output.part_rows,
// output.compression, output.compression_level) default to these values,
// and configs/reference.yaml documents them once, under those keys.
const (
	// DefaultBatchRows bounds the rows of one record batch (Arrow) or row
	// group (Parquet), hence the memory a writer holds at once.
	DefaultBatchRows = 1 << 20
	// DefaultPartRows bounds the candidate rows of one part file of a
	// result directory: parts of 3.6 MB in the Gnutella30 all-pairs run
	// and 12 MB of dense grid rows with parents (2.88 bytes per row,
	// docs/performance.md), so a result of tens of millions of rows is
	// already encoded on several cores.
	DefaultPartRows = 4 << 20
	// DefaultZstdLevel is the Parquet zstd level, zstd's own default. Delta
	// encoding leaves the codec little to do, so levels 1 to 6 differ by
	// about 3% in size and 10% in time on result tables.
	DefaultZstdLevel = 3
)

// DefaultCompression is the codec of a format's tables when none is asked
// for: Snappy for Parquet (fast, and every Parquet reader has it), none for
// Arrow IPC, which every reader opens without a codec plugin
// (docs/performance.md compares the codecs).
func DefaultCompression(f Format) Compression {
	if f == Arrow {
		return Uncompressed
	}
	return Snappy
}
