package tables

import (
	"sync"

	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/klauspost/compress/s2"
)

// fastSnappy is Parquet's SNAPPY codec with Snappy's fast block encoder.
// arrow-go's own codec encodes with klauspost's "better" mode, which on the
// delta-encoded pages of a result table costs about as much CPU as all the
// rest of the encoding for a file a few percent smaller. The output is
// standard Snappy: every reader decodes it, and it is deterministic.
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
