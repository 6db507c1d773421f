package tables

import (
	"sync"

	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/klauspost/compress/s2"
)

// fastSnappy is Parquet's SNAPPY codec with Snappy's fast block encoder.
// arrow-go's own codec encodes with klauspost's "better" mode: on 16.8M
// rows of result table (resultfiles.BenchmarkResultSink, 2 cores) Snappy took 0.53
// CPU-s that way and 0.32 with the fast encoder, for files 2% larger (2.62
// against 2.68 bytes per row). The output is standard Snappy: every reader
// decodes it, and it is deterministic. Registering it replaces arrow-go's
// Snappy encoder for the whole process, which only ever changes speed.
type fastSnappy struct {
	compress.Codec // decoding and streams: arrow-go's codec
}

// Encode compresses src into dst (reused when large enough).
func (fastSnappy) Encode(dst, src []byte) []byte { return s2.EncodeSnappy(dst, src) }

// EncodeLevel is Encode: Snappy has no levels.
func (fastSnappy) EncodeLevel(dst, src []byte, _ int) []byte { return s2.EncodeSnappy(dst, src) }

var useFastSnappy = sync.OnceFunc(func() {
	codec, err := compress.GetCodec(compress.Codecs.Snappy)
	if err != nil {
		return // arrow-go without Snappy: writers fail on their own
	}
	compress.RegisterCodec(compress.Codecs.Snappy, fastSnappy{Codec: codec})
})
