package resultfiles

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/tables"
)

var tableFormats = []tables.Format{tables.Parquet, tables.Arrow}

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

// randomTree returns a tree over n vertices from source with roughly a
// fraction unreach of the vertices unreachable; reachable non-source
// vertices get random distances (some negative) and, when withParents,
// random parents. It need not be a consistent shortest-path tree: the
// tables only store it.
func randomTree(rng *rand.Rand, n int, source int32, withParents bool, unreach float64) *paths.Tree {
	t := paths.NewTree(int32(n), source, withParents)
	for v := range n {
		if int32(v) == source {
			t.Dist[v] = 0
			continue
		}
		if rng.Float64() < unreach {
			continue
		}
		t.Dist[v] = rng.Int64N(1<<40) - 1<<20
		if withParents {
			t.Parent[v] = int32(rng.IntN(n))
		}
	}
	return t
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
func checkInfo(t *testing.T, info tables.FileInfo, wantRows int64) {
	t.Helper()
	b := fileBytes(t, info.Path)
	sum := sha256.Sum256(b)
	if info.SHA256 != hex.EncodeToString(sum[:]) {
		t.Errorf("%s: tables.FileInfo checksum %s, file hashes to %x", info.Path, info.SHA256, sum)
	}
	if info.Bytes != int64(len(b)) {
		t.Errorf("%s: tables.FileInfo size %d, file has %d bytes", info.Path, info.Bytes, len(b))
	}
	if info.Rows != wantRows {
		t.Errorf("%s: tables.FileInfo rows %d, want %d", info.Path, info.Rows, wantRows)
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

// encodingCase is a way to write and read a table: Arrow IPC, Parquet as
// shipped, and PLAIN Parquet decoded with the checked allocator, which
// checks that the Parquet read path releases what it takes.
type encodingCase struct {
	format      tables.Format
	write, read []tables.Option
}

func encodingCases(t *testing.T) []encodingCase {
	arrowMem, parquetMem, plainMem := checkedAllocator(t), checkedAllocator(t), checkedAllocator(t)
	return []encodingCase{
		{tables.Arrow, []tables.Option{tables.WithFormat(tables.Arrow), tables.WithAllocator(arrowMem)}, []tables.Option{tables.WithAllocator(arrowMem)}},
		{tables.Parquet, []tables.Option{tables.WithAllocator(parquetMem)}, []tables.Option{tables.WithAllocator(parquetMem)}},
		{tables.Parquet, []tables.Option{tables.WithAllocator(plainMem), tables.WithPlainParquet()},
			[]tables.Option{tables.WithAllocator(plainMem), tables.WithParquetReadAllocator(plainMem)}},
	}
}

// defaultConfig is the configuration no options give, which never fails
// its checks.
func defaultConfig() tables.Config {
	cfg, err := tables.NewConfig(nil)
	if err != nil {
		panic(err)
	}
	return cfg
}
