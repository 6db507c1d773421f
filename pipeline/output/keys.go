package output

// Output keys both stages read: where the output goes, its table format,
// rows per batch and codec. Each stage declares them with its own default
// and usage; the keys only one stage reads are that stage's.
const (
	KeyOutputDir       = "output.dir"
	KeyOutputFormat    = "output.format"
	KeyOutputBatchRows = "output.batch_rows"
	KeyCompression     = "output.compression"
)
