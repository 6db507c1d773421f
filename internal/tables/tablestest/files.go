package tablestest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Meta is key-value metadata for writers to store, with a key that sorts
// last so that tests see whether the order of keys is kept. Callers must
// not change it.
var Meta = map[string]string{
	"pathflow.input_file":   "graph.gr",
	"pathflow.input_sha256": "0123abcd",
	"pathflow.z_last":       "sorted last",
}

// CheckedAllocator returns an allocator that fails the test if anything
// allocated from it is still held when the test ends.
func CheckedAllocator(t testing.TB) *memory.CheckedAllocator {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	return mem
}

// FileBytes returns the contents of path, failing the test if it cannot
// be read.
func FileBytes(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// FileFacts is what a writer reports about a file it wrote (the fields of
// tables.FileInfo that describe the bytes).
type FileFacts struct {
	Path   string
	SHA256 string
	Bytes  int64
	Rows   int64
}

// CheckFacts compares what a writer reported with the file on disk and
// with the rows it should hold.
func CheckFacts(t testing.TB, info FileFacts, wantRows int64) {
	t.Helper()
	b := FileBytes(t, info.Path)
	sum := sha256.Sum256(b)
	if info.SHA256 != hex.EncodeToString(sum[:]) {
		t.Errorf("%s: FileInfo checksum %s, file hashes to %x", info.Path, info.SHA256, sum)
	}
	if info.Bytes != int64(len(b)) {
		t.Errorf("%s: FileInfo size %d, file has %d bytes", info.Path, info.Bytes, len(b))
	}
	if info.Rows != wantRows {
		t.Errorf("%s: FileInfo rows %d, want %d", info.Path, info.Rows, wantRows)
	}
}

// SameBytes fails the test unless files a and b hold the same bytes: the
// writers must be deterministic.
func SameBytes(t testing.TB, a, b string) {
	t.Helper()
	if !bytes.Equal(FileBytes(t, a), FileBytes(t, b)) {
		t.Errorf("%s and %s differ: the same input must give the same bytes", a, b)
	}
}

// SameMeta fails the test unless the metadata read back equals want.
func SameMeta(t testing.TB, got, want map[string]string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("metadata %v, want %v", got, want)
		return
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("metadata %q = %q, want %q", k, got[k], v)
		}
	}
}
