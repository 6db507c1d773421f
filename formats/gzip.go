package formats

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/klauspost/compress/gzip"
)

// gzipMagic starts every gzip member (RFC 1952).
var gzipMagic = []byte{0x1f, 0x8b}

// openMaybeGzip returns a reader of the decompressed bytes of r when r
// starts with the gzip magic bytes 1f 8b, and a reader of r's bytes
// unchanged otherwise. The decision is made from the content, never from a
// file name, so "graph.gr" holding gzip data and "graph.gr.gz" holding text
// both work. Concatenated gzip members are read as one stream. No text
// format read by this package can start with 1f 8b, so the check is
// unambiguous. Errors are left for the caller to place.
func openMaybeGzip(r io.Reader) (io.Reader, error) {
	var head [2]byte
	n, err := io.ReadFull(r, head[:])
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, fmt.Errorf("reading the first bytes: %w", err)
	}
	whole := io.MultiReader(bytes.NewReader(head[:n]), r)
	if n < 2 || !bytes.Equal(head[:], gzipMagic) {
		return whole, nil
	}
	zr, err := gzip.NewReader(whole)
	if err != nil {
		return nil, fmt.Errorf("gzip header: %w", err)
	}
	return zr, nil
}
