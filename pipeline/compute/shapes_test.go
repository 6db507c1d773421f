package compute

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/formats"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/pipeline/output"
	"github.com/pathflow/pathflow/pipeline/stageerr"
)

// shapeSpec is a sparse random graph: some pairs are unreachable, so null
// distances and parents show up in every shape.
const (
	shapeSpec = "erdos-renyi:n=60,p=0.03,lo=1,hi=50,seed=11"
	shapeN    = 60
)

// shapeGraph returns the shape graph and the reference distances from
// every vertex, checking that some pairs are unreachable.
func shapeGraph(t *testing.T) (*graph.CSR, map[int32][]int64) {
	t.Helper()
	g := graph.BuildCSR(mustGenerate(t, shapeSpec))
	ref := refDists(g, seq(g.N))
	unreachable := 0
	for _, d := range ref {
		for _, x := range d {
			if x == paths.Unreachable {
				unreachable++
			}
		}
	}
	if unreachable == 0 || unreachable > len(ref)*int(g.N)/2 {
		t.Fatalf("%s has %d unreachable pairs: pick a graph with some, not most", shapeSpec, unreachable)
	}
	return g, ref
}

// shapeArgs are the flags of a CPU run on the shape graph into out.
func shapeArgs(out string, extra ...string) []string {
	return append([]string{"-generate", shapeSpec, "-backend", "cpu", "-out", out}, extra...)
}

func TestComputeTargetsKeepTheirOrder(t *testing.T) {
	g, ref := shapeGraph(t)
	out := filepath.Join(t.TempDir(), "out")
	res := runCompute(t, loadCompute(t, "", shapeArgs(out, "-algorithm", "dijkstra", "-sources", "5,2,30",
		"-targets", "17,3,59,0,40-42,5")...))
	sources, targets := []int32{5, 2, 30}, []int32{17, 3, 59, 0, 40, 41, 42, 5}
	rows, meta, hasParents := readLong(t, filepath.Join(out, output.DistancesDir))
	if !hasParents {
		t.Fatal("no parent column")
	}
	want := expectLong(ref, sources, targets, shapeN, results.NoCutoff)
	compareLong(t, g, ref, rows, want)
	if !slices.ContainsFunc(rows, func(r longRow) bool { return r.Dist == paths.Unreachable }) {
		t.Error("no unreachable target among the rows: the test does not see nulls")
	}
	if meta[MetaTargets] != "17,3,59,0,40,41,42,5" || meta[MetaMaxDistance] != "none" || meta[MetaLayout] != "long" {
		t.Errorf("metadata targets %q, max_distance %q, layout %q", meta[MetaTargets], meta[MetaMaxDistance], meta[MetaLayout])
	}
	if got := res.Manifest.Files[0].Rows; got != int64(len(want)) {
		t.Errorf("manifest says %d rows, the table has %d", got, len(want))
	}
}

func TestComputeMaxDistanceKeepsOnlyCellsWithinTheCutoff(t *testing.T) {
	g, ref := shapeGraph(t)
	const cutoff = 60
	for _, tc := range []struct {
		name, algorithm string
		sources         []string
		targets         string
	}{
		// Dijkstra stops searching at the cutoff; Floyd-Warshall computes
		// everything and the writer drops the far cells.
		{"dijkstra", "dijkstra", []string{"-sources", "0-9"}, "all"},
		{"floyd-warshall", "floyd-warshall", []string{"-sources", "all"}, "all"},
		{"floyd-warshall targets", "floyd-warshall", []string{"-sources", "all"}, "59,7,0,33"},
		{"bellman-ford targets", "bellman-ford", []string{"-sources", "30-59,3"}, "59,7,0,33"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			args := append(shapeArgs(out, "-algorithm", tc.algorithm, "-max-distance", "60", "-targets", tc.targets), tc.sources...)
			runCompute(t, loadCompute(t, "", args...))
			cfgSources, _ := DenseNames(shapeN).Sources(KeySources, strings.Split(tc.sources[1], ","))
			cfgTargets, _ := DenseNames(shapeN).Targets(KeyTargets, strings.Split(tc.targets, ","))
			rows, meta, _ := readLong(t, filepath.Join(out, output.DistancesDir))
			want := expectLong(ref, cfgSources, cfgTargets, shapeN, cutoff)
			compareLong(t, g, ref, rows, want)
			all := expectLong(ref, cfgSources, cfgTargets, shapeN, results.NoCutoff)
			if len(want) == 0 || len(want) == len(all) {
				t.Fatalf("the cutoff keeps %d of %d cells: the test checks nothing", len(want), len(all))
			}
			if meta[MetaMaxDistance] != "60" {
				t.Errorf("pathflow.max_distance = %q", meta[MetaMaxDistance])
			}
		})
	}
}

// TestComputeMaxDistanceFromEnvironment: the cutoff is read from the
// environment like every other key.
func TestComputeMaxDistanceFromEnvironment(t *testing.T) {
	t.Setenv("PATHFLOW_COMPUTE_MAX_DISTANCE", "25")
	cfg := loadCompute(t, "", shapeArgs(filepath.Join(t.TempDir(), "out"))...)
	if cfg.MaxDistance != 25 {
		t.Errorf("max distance %d, want 25", cfg.MaxDistance)
	}
}

func TestComputeWideLayout(t *testing.T) {
	g, ref := shapeGraph(t)
	for _, tc := range []struct {
		name    string
		args    []string
		targets []int32 // nil: every vertex
		cutoff  int64
	}{
		{"all pairs", []string{"-sources", "all"}, nil, results.NoCutoff},
		{"targets and cutoff", []string{"-sources", "9,4,50", "-targets", "33,0,7-9", "-max-distance", "70"}, []int32{33, 0, 7, 8, 9}, 70},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			// Small parts and row groups: a list row must never be split.
			cfg := loadCompute(t, "output:\n  part_rows: 100\n  batch_rows: 70\n", shapeArgs(out, append(tc.args, "-layout", "wide")...)...)
			runCompute(t, cfg)
			sources, _ := DenseNames(shapeN).Sources(KeySources, cfg.Sources)
			rows, meta := readWide(t, filepath.Join(out, output.DistancesDir))
			if len(rows) != len(sources) {
				t.Fatalf("%d rows for %d sources", len(rows), len(sources))
			}
			targets := tc.targets
			if targets == nil {
				targets = seq(shapeN)
			}
			nulls := 0
			for i, r := range rows {
				s := sources[i]
				if r.Source != s || len(r.Dist) != len(targets) || len(r.Parent) != len(targets) {
					t.Fatalf("row %d: source %d with %d distances and %d parents, want source %d and %d each",
						i, r.Source, len(r.Dist), len(r.Parent), s, len(targets))
				}
				for j, v := range targets {
					want := ref[s][v]
					if tc.cutoff != results.NoCutoff && want > tc.cutoff {
						want = paths.Unreachable
					}
					if want == paths.Unreachable {
						nulls++
					}
					if r.Dist[j] != want {
						t.Fatalf("source %d, target %d: distance %s, want %s", s, v, distText(r.Dist[j]), distText(want))
					}
					if want == paths.Unreachable {
						if r.Parent[j] != paths.NoParent {
							t.Fatalf("source %d, target %d: parent %d of a null distance", s, v, r.Parent[j])
						}
					} else if err := checkParent(g, ref[s], s, v, r.Parent[j]); err != nil {
						t.Fatal(err)
					}
				}
			}
			if nulls == 0 {
				t.Error("no null entry: the test does not see nulls")
			}
			if meta[MetaLayout] != "wide" {
				t.Errorf("pathflow.layout = %q", meta[MetaLayout])
			}
		})
	}
}

func TestComputeDistanceMatrix(t *testing.T) {
	g, ref := shapeGraph(t)
	for _, algorithm := range []string{"auto", "floyd-warshall", "dijkstra", "johnson"} {
		t.Run(algorithm, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			res := runCompute(t, loadCompute(t, "", shapeArgs(out, "-algorithm", algorithm, "-sources", "all",
				"-output-format", "distmatrix", "-parents=false")...))
			f, err := os.Open(filepath.Join(out, output.MatrixName))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			m, err := formats.ReadDistanceMatrix(f, output.MatrixName, shapeN)
			if err != nil {
				t.Fatal(err)
			}
			for s := range g.N {
				for v := range g.N {
					if got, want := m.Distance(s, v), ref[s][v]; got != want {
						t.Fatalf("matrix[%d][%d] = %s, want %s", s, v, distText(got), distText(want))
					}
				}
			}
			if files := res.Manifest.Files; len(files) != 2 || files[0].Path != output.MatrixName ||
				files[0].Bytes != 4*shapeN*shapeN || files[1].Path != output.VerticesName+".parquet" || files[1].Rows != shapeN {
				t.Errorf("manifest files %+v, want the matrix and the vertices table", files)
			}
		})
	}
}

func TestComputeDistanceMatrixConfigErrors(t *testing.T) {
	base := []string{"-generate", shapeSpec, "-backend", "cpu", "-output-format", "distmatrix", "-sources", "all"}
	for _, tc := range []struct {
		name    string
		args    []string
		mention string
	}{
		{"parents by default", nil, KeyParents},
		{"some sources", []string{"-parents=false", "-sources", "0-9"}, KeySources},
		{"every source out of order", []string{"-parents=false", "-sources", "59,0-58"}, KeySources},
		{"some targets", []string{"-parents=false", "-targets", "0-9"}, KeyTargets},
		{"cutoff", []string{"-parents=false", "-max-distance", "10"}, KeyMaxDistance},
		{"wide", []string{"-parents=false", "-layout", "wide"}, KeyLayout},
		{"summary", []string{"-parents=false", "-summary"}, KeySummary},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			_, err := configThenCompute(t, append(append(slices.Clone(base), tc.args...), "-out", out)...)
			if stageerr.KindOf(err) != stageerr.Config || !strings.Contains(err.Error(), tc.mention) {
				t.Fatalf("err = %v (kind %v), want kind %v naming %s", err, stageerr.KindOf(err), stageerr.Config, tc.mention)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Errorf("a rejected run created %s", out)
			}
		})
	}
}

// TestComputeOutputsIndependentOfWorkers runs each config with 1 and 3
// workers and small parts and row groups: every data file must be
// byte-identical and the settings checksum the same.
func TestComputeOutputsIndependentOfWorkers(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"long", []string{"-algorithm", "dijkstra", "-sources", "0-29", "-summary", "-paths", "0:59,3:7"}},
		{"long all pairs", []string{"-algorithm", "floyd-warshall", "-sources", "all"}},
		{"targets and cutoff", []string{"-algorithm", "johnson", "-sources", "all", "-targets", "59,1,2-20", "-max-distance", "80", "-summary"}},
		{"wide", []string{"-algorithm", "floyd-warshall", "-sources", "all", "-layout", "wide", "-compression", "zstd"}},
		{"arrow", []string{"-algorithm", "bellman-ford", "-sources", "all", "-output-format", "arrow", "-compression", "lz4", "-summary"}},
		{"distmatrix", []string{"-algorithm", "dijkstra", "-sources", "all", "-output-format", "distmatrix", "-parents=false"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			yaml := "output:\n  part_rows: 500\n  batch_rows: 120\n"
			var manifests []*output.Manifest
			for _, workers := range []string{"1", "3"} {
				out := filepath.Join(dir, "w"+workers)
				res := runCompute(t, loadCompute(t, yaml, shapeArgs(out, append(tc.args, "-workers", workers)...)...))
				manifests = append(manifests, res.Manifest)
			}
			a, b := dataFiles(t, filepath.Join(dir, "w1")), dataFiles(t, filepath.Join(dir, "w3"))
			if !slices.Equal(sortedKeys(a), sortedKeys(b)) {
				t.Fatalf("files %v with 1 worker, %v with 3", sortedKeys(a), sortedKeys(b))
			}
			parts := 0
			for name := range a {
				if !bytes.Equal(a[name], b[name]) {
					t.Errorf("%s differs between 1 and 3 workers%s", name, metaDiff(t, dir, name))
				}
				if strings.HasPrefix(name, output.DistancesDir+"/part-") {
					parts++
				}
			}
			if tc.name != "distmatrix" && parts < 3 {
				t.Errorf("%d part files: the test wants several", parts)
			}
			if manifests[0].ConfigSHA256 != manifests[1].ConfigSHA256 || manifests[0].Workers != 1 || manifests[1].Workers != 3 {
				t.Errorf("manifests: config_sha256 %s and %s, workers %d and %d",
					manifests[0].ConfigSHA256, manifests[1].ConfigSHA256, manifests[0].Workers, manifests[1].Workers)
			}
		})
	}
}

// metaDiff names the schema metadata that differs between the two runs'
// copies of a Parquet file, to explain a difference in bytes.
func metaDiff(t *testing.T, dir, name string) string {
	if !strings.HasSuffix(name, ".parquet") {
		return ""
	}
	_, a := readParquet(t, filepath.Join(dir, "w1", name))
	_, b := readParquet(t, filepath.Join(dir, "w3", name))
	var diff []string
	for k, v := range a {
		if b[k] != v {
			diff = append(diff, fmt.Sprintf("%s: %q and %q", k, v, b[k]))
		}
	}
	if len(diff) == 0 {
		return ""
	}
	slices.Sort(diff)
	return " (metadata " + strings.Join(diff, ", ") + ")"
}

// dataFiles reads every file of an output folder but the manifest, by
// slash-separated relative path.
func dataFiles(t *testing.T, root string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if rel == output.ManifestName {
			return nil
		}
		b, err := os.ReadFile(path)
		files[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// TestComputeMaxDistanceWithNegativeArcs: with negative arcs a path may
// come back within the cutoff after leaving it, so no search may prune on
// partial distances (Johnson's reduced weights included).
func TestComputeMaxDistanceWithNegativeArcs(t *testing.T) {
	e := reweighted(t)
	g := graph.BuildCSR(e)
	input := writeGR(t, "negative.gr", e)
	ref := refDists(g, seq(g.N))
	const cutoff = 15
	want := expectLong(ref, seq(g.N), nil, g.N, cutoff)
	negative := slices.ContainsFunc(want, func(r longRow) bool { return r.Dist < 0 })
	if !negative || len(want) == int(g.N*g.N) {
		t.Fatalf("%d of %d cells within the cutoff, negative ones %t: the test wants some of each", len(want), g.N*g.N, negative)
	}
	for _, alg := range []string{"bellman-ford", "johnson", "floyd-warshall"} {
		t.Run(alg, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			runCompute(t, loadCompute(t, "", "-input", input, "-backend", "cpu", "-algorithm", alg, "-sources", "all",
				"-max-distance", "15", "-out", out))
			rows, _, _ := readLong(t, filepath.Join(out, output.DistancesDir))
			compareLong(t, g, ref, rows, want)
		})
	}
}
