package tables

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

var formats = []Format{Parquet, Arrow}

// seeds returns fixed seeds plus a fresh one, logged so a failure can be
// replayed.
func seeds(t *testing.T) []uint64 {
	fresh := uint64(time.Now().UnixNano())
	t.Logf("fresh seed %d", fresh)
	return []uint64{1, 2, fresh}
}

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)) }

// checkedAllocator returns an allocator that fails the test if anything
// allocated from it is still held when the test ends.
func checkedAllocator(t *testing.T) *memory.CheckedAllocator {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	return mem
}

func fileBytes(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// checkInfo compares a FileInfo with the file on disk.
func checkInfo(t *testing.T, info FileInfo, wantRows int64) {
	t.Helper()
	b := fileBytes(t, info.Path)
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

func sameBytes(t *testing.T, a, b string) {
	t.Helper()
	if !bytes.Equal(fileBytes(t, a), fileBytes(t, b)) {
		t.Errorf("%s and %s differ: the same input must give the same bytes", a, b)
	}
}

func sameMeta(t *testing.T, got, want map[string]string) {
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

var testMeta = map[string]string{
	"pathflow.input_file":   "graph.gr",
	"pathflow.input_sha256": "0123abcd",
	"pathflow.z_last":       "sorted last",
}
