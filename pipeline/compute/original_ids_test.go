package compute

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/pathflow/pathflow/internal/duckdbtest"
	"github.com/pathflow/pathflow/pipeline/output"
)

// TestOriginalIDsInTheDistances checks that a run naming vertices by the
// input's ids (compute.ids: original) writes them beside the dense ids,
// in the long and the wide layout, so that no join through the vertices
// table is needed: on rome99, DIMACS vertex k is dense id k-1. A run with
// dense ids writes no such columns.
func TestOriginalIDsInTheDistances(t *testing.T) {
	duckdbtest.Require(t)
	path := mirrorFile(t, "rome99.gr")
	parts := func(out string) string {
		return duckdbtest.SQLString(filepath.Join(out, output.DistancesDir, "*.parquet"))
	}
	long := filepath.Join(t.TempDir(), "long")
	runCompute(t, loadCompute(t, "", "-input", path, "-ids", "original", "-sources", "1,17,3353", "-targets", "all", "-out", long, "-backend", "cpu"))
	got := duckdbtest.Query(t, fmt.Sprintf("SELECT count(*), count(*) FILTER (WHERE source_original_id = source + 1 AND vertex_original_id = vertex + 1) FROM read_parquet(%s)", parts(long)))[0].Rows[0]
	if duckdbtest.Text(got[0]) != "10059" || duckdbtest.Text(got[0]) != duckdbtest.Text(got[1]) {
		t.Errorf("long layout: %v rows, %v with the input's ids", got[0], got[1])
	}
	wide := filepath.Join(t.TempDir(), "wide")
	runCompute(t, loadCompute(t, "", "-input", path, "-ids", "original", "-sources", "5,6", "-targets", "1,2", "-layout", "wide", "-out", wide, "-backend", "cpu"))
	if got := duckdbtest.Scalar(t, fmt.Sprintf("SELECT string_agg(source_original_id::VARCHAR, ',' ORDER BY source) FROM read_parquet(%s)", parts(wide))); got != "5,6" {
		t.Errorf("wide layout: source_original_id %s, want 5,6", got)
	}
	dense := filepath.Join(t.TempDir(), "dense")
	runCompute(t, loadCompute(t, "", "-input", path, "-sources", "0", "-out", dense, "-backend", "cpu"))
	cols := duckdbtest.Query(t, fmt.Sprintf("DESCRIBE SELECT * FROM read_parquet(%s)", parts(dense)))[0]
	for _, r := range cols.Rows {
		if name := duckdbtest.Text(r[0]); name == "source_original_id" || name == "vertex_original_id" {
			t.Errorf("a run with dense ids writes %s", name)
		}
	}
}
