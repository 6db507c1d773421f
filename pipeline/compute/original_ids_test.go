package compute

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/internal/duckdbtest"
	"github.com/pathflow/pathflow/pipeline/internal/stagetest"
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

// TestOriginalIDsInTheSummaryAndPaths checks that a run naming vertices
// by the input's ids writes them into the summary and paths tables too,
// in Parquet and Arrow IPC, on a SNAP file whose ids are neither dense
// nor in order (dense 0, 1, 2, 3 are 10, 20, 35, 40). The paths, worked
// out by hand: 20 to 40 through 35 (4+2), 10 to 35 through 20 (3+4, not
// the direct 9), and none from 40, which has no arc out.
func TestOriginalIDsInTheSummaryAndPaths(t *testing.T) {
	snap := stagetest.WriteFile(t, "sparse.txt", "10 20 3\n20 35 4\n35 10 1\n10 35 9\n35 40 2\n")
	for _, format := range []string{"parquet", "arrow"} {
		out := filepath.Join(t.TempDir(), format)
		runCompute(t, loadCompute(t, "", "-input", snap, "-backend", "cpu", "-out", out, "-output-format", format,
			"-ids", "original", "-sources", "20,10,40", "-summary", "-paths", "20:40,10:35,40:10"))
		ext := "." + format
		paths := tableText(t, []string{filepath.Join(out, output.PathsName+ext)})
		wantPaths := []string{
			"source int32, target int32, cost int64, vertices list<element: int32>, " +
				"source_original_id int64, target_original_id int64, vertices_original_id list<element: int64>",
			"1 | 3 | 6 | [1,2,3] | 20 | 40 | [20,35,40]",
			"0 | 2 | 7 | [0,1,2] | 10 | 35 | [10,20,35]",
			"3 | 0 | (null) | (null) | 40 | 10 | (null)",
		}
		if !slices.Equal(paths, wantPaths) {
			t.Errorf("%s paths:\n%s\nwant\n%s", format, strings.Join(paths, "\n"), strings.Join(wantPaths, "\n"))
		}
		summary := tableText(t, []string{filepath.Join(out, output.SummaryName+ext)})
		var sources []string
		for _, row := range summary[1:] {
			f := strings.Split(row, " | ")
			sources = append(sources, f[0]+"="+f[len(f)-1])
		}
		if !strings.HasSuffix(summary[0], "source_original_id int64") || !slices.Equal(sources, []string{"1=20", "0=10", "3=40"}) {
			t.Errorf("%s summary: %q, sources %v", format, summary[0], sources)
		}
	}
	dense := filepath.Join(t.TempDir(), "dense")
	runCompute(t, loadCompute(t, "", "-input", snap, "-backend", "cpu", "-out", dense, "-sources", "1", "-summary", "-paths", "1:3"))
	for _, table := range []string{output.PathsName, output.SummaryName} {
		if header := tableText(t, []string{filepath.Join(dense, table+".parquet")})[0]; strings.Contains(header, "original") {
			t.Errorf("a run with dense ids writes %s with %s", table, header)
		}
	}
}
