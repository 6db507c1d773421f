package tables

import (
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"io"
)

// FileInfo describes one written table file, for run manifests.
type FileInfo struct {
	// Path is the file's final path.
	Path string
	// Rows is the number of table rows in the file.
	Rows int64
	// Bytes is the file size.
	Bytes int64
	// SHA256 is the lowercase hex SHA-256 of the file's bytes.
	SHA256 string
	// Checksum, when set, is a cheaper checksum the file carries of
	// itself (a reload file's, see package csrfile), which a reader
	// compares instead of hashing the file again.
	Checksum string
}

// CountingWriter counts the bytes written through it to W: a file's size,
// or the offsets a Parquet footer records (Tell).
type CountingWriter struct {
	W io.Writer
	N int64
}

// Write writes p to W and counts what W took.
func (c *CountingWriter) Write(p []byte) (int, error) {
	n, err := c.W.Write(p)
	c.N += int64(n)
	return n, err
}

// Tell returns the bytes written so far.
func (c *CountingWriter) Tell() int64 { return c.N }

// DigestWriter passes writes through while counting and hashing them
// (SHA-256), so a file's size and checksum come for free instead of from
// a second read.
type DigestWriter struct {
	w     io.Writer
	hash  hash.Hash
	bytes int64
}

// NewDigestWriter counts and hashes what is written to w through it.
func NewDigestWriter(w io.Writer) *DigestWriter {
	return &DigestWriter{w: w, hash: sha256.New()}
}

// Write writes p to w and counts and hashes what w took.
func (d *DigestWriter) Write(p []byte) (int, error) {
	n, err := d.w.Write(p)
	d.hash.Write(p[:n])
	d.bytes += int64(n)
	return n, err
}

// Bytes is how many bytes were written.
func (d *DigestWriter) Bytes() int64 { return d.bytes }

// Sum is the hex SHA-256 of what was written.
func (d *DigestWriter) Sum() string { return hex.EncodeToString(d.hash.Sum(nil)) }
