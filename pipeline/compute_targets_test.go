package pipeline

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/paths"
)

// Rows narrowed to compute.targets, by the backend or, beside
// compute.paths (which reads whole rows), by the pipeline, give the
// reference cells for every algorithm and cutoff: a source listed twice
// written once, targets equal to sources, unreachable targets null.
func TestComputeNarrowedTargets(t *testing.T) {
	g, ref := shapeGraph(t)
	sources, targets := []int32{5, 2, 30}, []int32{17, 5, 2, 59, 0, 40, 41, 42}
	if !slices.ContainsFunc(expectLong(ref, sources, targets, shapeN, backend.NoCutoff), func(r longRow) bool { return r.Dist == paths.Unreachable }) {
		t.Fatal("no unreachable target: the test does not see nulls")
	}
	for _, alg := range []string{"dijkstra", "bellman-ford", "johnson", "floyd-warshall"} {
		for _, cutoff := range []int64{backend.NoCutoff, 0, 60, 1 << 40} {
			for _, withPaths := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/cutoff=%d/paths=%t", alg, cutoff, withPaths), func(t *testing.T) {
					out := filepath.Join(t.TempDir(), "out")
					args := shapeArgs(out, "-algorithm", alg, "-sources", "5,2,30,5", "-targets", "17,5,2,59,0,40-42",
						"-max-distance", strconv.FormatInt(cutoff, 10), "-summary")
					if withPaths {
						args = append(args, "-paths", "5-41,30-0")
					}
					runCompute(t, loadCompute(t, "output:\n  part_rows: 7\n  batch_rows: 3\n", args...))
					rows, _, _ := readLong(t, filepath.Join(out, DistancesDir))
					compareLong(t, g, ref, rows, expectLong(ref, sources, targets, shapeN, cutoff))
				})
			}
		}
	}
}
