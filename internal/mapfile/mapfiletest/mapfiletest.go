// Package mapfiletest holds what the tests of the mapped file formats
// (internal/csrfile, internal/chfile) share.
package mapfiletest

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/pathflow/pathflow/internal/mapfile"
)

// WriteTemp writes a file with write into a temporary folder of t under
// name and returns its path and what write reported, failing t when
// write fails or reports a size other than the bytes it wrote.
func WriteTemp(t testing.TB, name string, write func(io.Writer) (mapfile.Written, error)) (string, mapfile.Written) {
	t.Helper()
	var buf bytes.Buffer
	w, err := write(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if w.Bytes != int64(buf.Len()) {
		t.Fatalf("Write reports %d bytes, wrote %d", w.Bytes, buf.Len())
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, w
}
