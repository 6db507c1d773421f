// Package czlib stands in for github.com/datadog/czlib, the cgo binding
// of C zlib that github.com/paulmach/osm's PBF decoder calls when cgo is
// on, with the same reader API in pure Go (github.com/klauspost/compress's
// zlib). pathflow builds with cgo for CUDA; without this stand-in every
// build would need zlib's C headers and every binary libz.so.1.
// NOTICE says why and what was measured.
package czlib

import (
	"io"

	"github.com/klauspost/compress/zlib"
)

// NewReader returns a reader of the zlib stream r, decompressed.
func NewReader(r io.Reader) (io.ReadCloser, error) { return zlib.NewReader(r) }

// NewReaderBuffer is NewReader; the buffer size of the C binding does
// not apply.
func NewReaderBuffer(r io.Reader, _ int) (io.ReadCloser, error) { return zlib.NewReader(r) }
