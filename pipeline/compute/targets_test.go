package compute

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/resultfiles"
	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/pipeline/output"
	"github.com/pathflow/pathflow/pipeline/stageerr"
)

// Rows narrowed to compute.targets, by the backend or, beside
// compute.paths (which reads whole rows), by the pipeline, give the
// reference cells for every algorithm and cutoff: sources and targets in
// the order given, targets equal to sources, unreachable targets null.
func TestComputeNarrowedTargets(t *testing.T) {
	g, ref := shapeGraph(t)
	sources, targets := []int32{5, 2, 30}, []int32{17, 5, 2, 59, 0, 40, 41, 42}
	if !slices.ContainsFunc(expectLong(ref, sources, targets, shapeN, results.NoCutoff), func(r longRow) bool { return r.Dist == paths.Unreachable }) {
		t.Fatal("no unreachable target: the test does not see nulls")
	}
	for _, alg := range []string{"dijkstra", "bellman-ford", "johnson", "floyd-warshall"} {
		for _, cutoff := range []int64{results.NoCutoff, 0, 60, 1 << 40} {
			for _, withPaths := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/cutoff=%d/paths=%t", alg, cutoff, withPaths), func(t *testing.T) {
					out := filepath.Join(t.TempDir(), "out")
					args := shapeArgs(out, "-algorithm", alg, "-sources", "5,2,30", "-targets", "17,5,2,59,0,40-42",
						"-max-distance", strconv.FormatInt(cutoff, 10), "-summary")
					if withPaths {
						args = append(args, "-paths", "5-41,30-0")
					}
					runCompute(t, loadCompute(t, "output:\n  part_rows: 7\n  batch_rows: 3\n", args...))
					rows, _, _ := readLong(t, filepath.Join(out, output.DistancesDir))
					compareLong(t, g, ref, rows, expectLong(ref, sources, targets, shapeN, cutoff))
					if withPaths && (cutoff == results.NoCutoff || cutoff > 1<<20) {
						// Within a cutoff a search may stop short of a path.
						checkPathCosts(t, filepath.Join(out, output.PathsName+".parquet"), ref, [][2]int32{{5, 41}, {30, 0}})
					}
				})
			}
		}
	}
}

// A vertex list that names a vertex twice, has an empty element or a
// signed id is a config error (exit 2) naming the key and the element,
// before any output is written: it was once read as the list without it.
func TestComputeRefusesAmbiguousVertexLists(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-sources", "3,1,3"}, `compute.sources": source 3 is named by item 1 ("3") and again by item 3 ("3")`},
		{[]string{"-sources", "0-9,5"}, `compute.sources": source 5 is named by item 1 ("0-9") and again by item 2 ("5")`},
		{[]string{"-targets", "5,5"}, `compute.targets": target 5 is named by item 1 ("5") and again by item 2 ("5")`},
		{[]string{"-sources", "0,,1"}, `compute.sources": flag -sources: "0,,1": element 2 is empty`},
		{[]string{"-sources", "+3"}, `compute.sources": "+3" is not a vertex id`},
		{[]string{"-targets", "1-+3"}, `compute.targets": "1-+3" is not a range`},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			_, err := configThenCompute(t, append([]string{"-generate", shapeSpec, "-backend", "cpu", "-out", out}, tc.args...)...)
			if stageerr.KindOf(err) != stageerr.Config || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v (kind %v), want kind %v saying %q", err, stageerr.KindOf(err), stageerr.Config, tc.want)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Errorf("a refused run left %s (%v)", out, err)
			}
		})
	}
}

// fullRowsBackend answers every request with full rows, as a backend that
// does not narrow to targets (nor hand sparse rows) yet.
type fullRowsBackend struct{ backend.Backend }

func (f fullRowsBackend) Run(ctx context.Context, req backend.Request, sink results.Sink) error {
	req.Targets, req.SourceTargets, req.CutoffCells = nil, nil, false
	return f.Backend.Run(ctx, req, sink)
}

// The blocks of a backend that answers narrowed requests with full rows
// are narrowed by the pipeline: the table holds the targets' cells alone,
// for shared targets and for a pair list. Replaces the "gpu" backend: not
// parallel.
func TestComputeNarrowsFullRowsOfABackend(t *testing.T) {
	f := fakeGPUFactory(nil)
	open := f.Open
	f.Open = func(o backend.Options) (backend.Backend, error) {
		gpu, err := open(o)
		return fullRowsBackend{gpu}, err
	}
	registerFake(t, f)
	g, ref := shapeGraph(t)
	out := filepath.Join(t.TempDir(), "out")
	runCompute(t, loadCompute(t, "", "-generate", shapeSpec, "-backend", "gpu", "-out", out,
		"-sources", "5,2,30", "-targets", "17,5,2,59,0,40-42", "-max-distance", "60"))
	rows, _, _ := readLong(t, filepath.Join(out, output.DistancesDir))
	compareLong(t, g, ref, rows, expectLong(ref, []int32{5, 2, 30}, []int32{17, 5, 2, 59, 0, 40, 41, 42}, shapeN, 60))

	pairs := shapePairs(t, ref)
	out = filepath.Join(t.TempDir(), "out")
	runCompute(t, loadCompute(t, "", "-generate", shapeSpec, "-backend", "gpu", "-out", out, "-pairs", writePairsCSV(t, pairs)))
	pairRows, _ := readPairTable(t, filepath.Join(out, output.DistancesDir))
	comparePairTable(t, g, ref, pairRows, pairs, results.NoCutoff, true, denseIDs)
}

// checkPathCosts reads a paths table and checks it has the pairs, in
// order, each with the reference cost and a vertex sequence from its
// source to its target (none when unreachable).
func checkPathCosts(t *testing.T, path string, ref map[int32][]int64, pairs [][2]int32) {
	t.Helper()
	rows, _, err := resultfiles.ReadPaths(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(pairs) {
		t.Fatalf("%d paths, want %d", len(rows), len(pairs))
	}
	for i, p := range pairs {
		r := rows[i]
		if r.Source != p[0] || r.Target != p[1] || r.Cost != ref[p[0]][p[1]] {
			t.Errorf("path %d: %d -> %d cost %d, want %d -> %d cost %d", i, r.Source, r.Target, r.Cost, p[0], p[1], ref[p[0]][p[1]])
		}
		reached := r.Cost != paths.Unreachable
		if reached != (len(r.Vertices) > 0) || (reached && (r.Vertices[0] != p[0] || r.Vertices[len(r.Vertices)-1] != p[1])) {
			t.Errorf("path %d: vertices %v for %d -> %d at cost %d", i, r.Vertices, p[0], p[1], r.Cost)
		}
	}
}
