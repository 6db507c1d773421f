package resultfiles

import (
	"math/rand/v2"
	"testing"

	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/tables"
	"github.com/pathflow/pathflow/internal/tables/tablestest"
)

var tableFormats = []tables.Format{tables.Parquet, tables.Arrow}

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

// checkInfo compares a FileInfo with the file on disk.
func checkInfo(t *testing.T, info tables.FileInfo, wantRows int64) {
	t.Helper()
	tablestest.CheckFacts(t, tablestest.FileFacts{Path: info.Path, SHA256: info.SHA256, Bytes: info.Bytes, Rows: info.Rows}, wantRows)
}

// encodingCase is a way to write and read a table: Arrow IPC, Parquet as
// shipped, and PLAIN Parquet decoded with the checked allocator, which
// checks that the Parquet read path releases what it takes.
type encodingCase struct {
	format      tables.Format
	write, read []tables.Option
}

func encodingCases(t *testing.T) []encodingCase {
	arrowMem, parquetMem, plainMem := tablestest.CheckedAllocator(t), tablestest.CheckedAllocator(t), tablestest.CheckedAllocator(t)
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
