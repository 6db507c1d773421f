package resultfiles

import (
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/tables/tablestest"
)

// TestParquetEncodings checks that the encodings meant for each result column are
// the ones in the files (a misspelt column path would silently fall back to
// PLAIN), with the default codec.
func TestParquetEncodings(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tree := &paths.Tree{Source: 0, Dist: []int64{0, 4, 9}, Parent: []int32{-1, 0, 1}}
	writeSink(t, filepath.Join(dir, "result"), []*paths.Tree{tree}, true, tablestest.NewRand(1))
	pathsFile, summaryFile := filepath.Join(dir, "paths.parquet"), filepath.Join(dir, "summary.parquet")
	if _, err := WritePaths(pathsFile, []PathRow{NewPathRow(tree, 2)}, OriginalIDs{}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteSummary(summaryFile, []SummaryRow{Summarize(tree)}, OriginalIDs{}, nil); err != nil {
		t.Fatal(err)
	}
	delta := tablestest.Delta
	want := map[string]map[string]parquet.Encoding{
		filepath.Join(dir, "result", "part-00000.parquet"): {
			"source": delta, "vertex": delta, "distance": delta, "parent": delta},
		pathsFile:   {"source": delta, "target": delta, "cost": delta, "vertices.list.element": parquet.Encodings.Plain},
		summaryFile: {"source": delta, "reachable": delta, "eccentricity": delta, "closeness": parquet.Encodings.Plain},
	}
	tablestest.CheckParquetEncodings(t, want)
}
