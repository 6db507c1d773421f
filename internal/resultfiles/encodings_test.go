package resultfiles

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/pathflow/pathflow/internal/paths"
)

// TestParquetEncodings checks that the encodings meant for each result column are
// the ones in the files (a misspelt column path would silently fall back to
// PLAIN), with the default codec.
func TestParquetEncodings(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tree := &paths.Tree{Source: 0, Dist: []int64{0, 4, 9}, Parent: []int32{-1, 0, 1}}
	writeSink(t, filepath.Join(dir, "result"), []*paths.Tree{tree}, true, newRand(1))
	pathsFile, summaryFile := filepath.Join(dir, "paths.parquet"), filepath.Join(dir, "summary.parquet")
	if _, err := WritePaths(pathsFile, []PathRow{NewPathRow(tree, 2)}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteSummary(summaryFile, []SummaryRow{Summarize(tree)}, nil); err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string]parquet.Encoding{
		filepath.Join(dir, "result", "part-00000.parquet"): {
			"source": parquet.Encodings.Plain, "vertex": delta, "distance": delta, "parent": delta},
		pathsFile:   {"source": delta, "target": delta, "cost": delta, "vertices.list.element": delta},
		summaryFile: {"source": delta, "reachable": delta, "eccentricity": delta, "closeness": parquet.Encodings.Plain},
	}
	for path, cols := range want {
		pf, err := file.OpenParquetFile(path, false)
		if err != nil {
			t.Fatal(err)
		}
		rg := pf.MetaData().RowGroup(0)
		for i := range rg.NumColumns() {
			cc, err := rg.ColumnChunk(i)
			if err != nil {
				t.Fatal(err)
			}
			col := cc.PathInSchema().String()
			enc, ok := cols[col]
			if !ok {
				t.Errorf("%s: unexpected column %s", filepath.Base(path), col)
				continue
			}
			if !slices.Contains(cc.Encodings(), enc) {
				t.Errorf("%s: column %s has encodings %v, want %v", filepath.Base(path), col, cc.Encodings(), enc)
			}
			if cc.Compression() != compress.Codecs.Snappy { // DefaultCompression(Parquet)
				t.Errorf("%s: column %s compressed with %v, want snappy", filepath.Base(path), col, cc.Compression())
			}
			delete(cols, col)
		}
		pf.Close()
		for col := range cols {
			t.Errorf("%s: no column %s", filepath.Base(path), col)
		}
	}
}

var delta = parquet.Encodings.DeltaBinaryPacked
