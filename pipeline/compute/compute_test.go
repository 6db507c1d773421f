package compute

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/datasets"
	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/resultfiles"
	"github.com/pathflow/pathflow/pipeline/input"
	"github.com/pathflow/pathflow/pipeline/internal/stagetest"
	"github.com/pathflow/pathflow/pipeline/output"
	"github.com/pathflow/pathflow/pipeline/stageerr"
)

// loadCompute builds a compute config from a YAML text and flags, the way
// the command does.
func loadCompute(t *testing.T, yaml string, args ...string) *Config {
	t.Helper()
	if yaml != "" {
		path := filepath.Join(t.TempDir(), "c.yaml")
		if err := os.WriteFile(path, []byte(yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		args = append([]string{"-config=" + path}, args...)
	}
	l, err := config.Load("compute", Keys(), args, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := ConfigFrom(l)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func runCompute(t *testing.T, cfg *Config) *Result {
	t.Helper()
	res, err := Run(context.Background(), cfg, stagetest.QuietLog, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// checkOutputs reads every written tree back and checks it against the
// graph: a consistent shortest-path tree (paths.CheckTree), the manifest's
// checksums, and the paths table's costs.
func checkOutputs(t *testing.T, dir string, g *graph.CSR, wantSources []int32) {
	t.Helper()
	var got []int32
	_, hasParents, err := resultfiles.ScanResults(filepath.Join(dir, output.DistancesDir), func(tr *paths.Tree) error {
		got = append(got, tr.Source)
		return paths.CheckTree(g, tr)
	})
	if err != nil {
		t.Fatal(err)
	}
	if !hasParents {
		t.Error("the distances table has no parent column")
	}
	if len(got) != len(wantSources) {
		t.Fatalf("trees for sources %v, want %v", got, wantSources)
	}
	for i := range got {
		if got[i] != wantSources[i] {
			t.Fatalf("trees for sources %v, want %v", got, wantSources)
		}
	}
	m, err := output.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range m.Files {
		b, err := os.ReadFile(filepath.Join(dir, f.Path))
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(b)
		if hex.EncodeToString(sum[:]) != f.SHA256 || int64(len(b)) != f.Bytes {
			t.Errorf("manifest entry %s does not match the file", f.Path)
		}
	}
}

func TestComputeDemoConfigEndToEnd(t *testing.T) {
	out := filepath.Join(t.TempDir(), "demo")
	cfg := loadCompute(t, "", "-config=../../configs/demo.yaml", "-out", out, "-backend", "cpu")
	res := runCompute(t, cfg)
	if res.Manifest.Algorithm != backend.AlgorithmDijkstra || res.Manifest.Backend != "cpu" {
		t.Errorf("ran %s on %s, want dijkstra on cpu", res.Manifest.Algorithm, res.Manifest.Backend)
	}
	g, err := input.Generate(cfg.Input.Generate)
	if err != nil {
		t.Fatal(err)
	}
	csr := graph.BuildCSR(g.Edges)
	checkOutputs(t, out, csr, []int32{0, 1, 2, 3})

	rows, _, err := resultfiles.ReadPaths(filepath.Join(out, output.PathsName+".parquet"))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || rows[0].Source != 0 || rows[0].Target != 4095 {
		t.Fatalf("paths table %+v", rows)
	}
	var sum int64
	for i := 1; i < len(rows[0].Vertices); i++ {
		u, v := rows[0].Vertices[i-1], rows[0].Vertices[i]
		best := int64(-1)
		for a := csr.Offsets[u]; a < csr.Offsets[u+1]; a++ {
			if csr.Targets[a] == v && (best < 0 || int64(csr.Weights[a]) < best) {
				best = int64(csr.Weights[a])
			}
		}
		if best < 0 {
			t.Fatalf("path uses a missing arc %d -> %d", u, v)
		}
		sum += best
	}
	if sum != rows[0].Cost {
		t.Errorf("path weights sum to %d, cost says %d", sum, rows[0].Cost)
	}
	summary, _, err := resultfiles.ReadSummary(filepath.Join(out, output.SummaryName+".parquet"))
	if err != nil || len(summary) != 4 || summary[0].Reachable != 4096 {
		t.Errorf("summary %+v, %v", summary, err)
	}
}

func TestComputeIsByteIdenticalAndSkipsWhenUnchanged(t *testing.T) {
	dir := t.TempDir()
	yaml := "input:\n  generate: grid:side=20,seed=7\ncompute:\n  backend: cpu\n  sources: [0, 5]\n"
	a := loadCompute(t, yaml, "-out", filepath.Join(dir, "a"))
	b := loadCompute(t, yaml, "-out", filepath.Join(dir, "b"), "-skip-if-unchanged")
	runCompute(t, a)
	runCompute(t, b)
	for _, name := range []string{"part-00000.parquet"} {
		x, _ := os.ReadFile(filepath.Join(dir, "a", output.DistancesDir, name))
		y, _ := os.ReadFile(filepath.Join(dir, "b", output.DistancesDir, name))
		if len(x) == 0 || !bytes.Equal(x, y) {
			t.Errorf("%s differs between two runs of the same input and config", name)
		}
	}
	if res := runCompute(t, b); !res.Skipped {
		t.Error("an unchanged re-run with skip_if_unchanged recomputed")
	}
	c := loadCompute(t, yaml, "-out", filepath.Join(dir, "b"), "-skip-if-unchanged", "-sources", "1")
	if res := runCompute(t, c); res.Skipped {
		t.Error("a re-run with other sources was skipped")
	}
	checkOutputs(t, filepath.Join(dir, "b"), graph.BuildCSR(mustGenerate(t, "grid:side=20,seed=7")), []int32{1})
}

// TestComputeRecomputesADamagedOutput: skip_if_unchanged does not take
// an output whose part file was damaged in place, its size unchanged,
// for a finished one: the run says why and writes the part again.
func TestComputeRecomputesADamagedOutput(t *testing.T) {
	yaml := "input:\n  generate: grid:side=20,seed=7\ncompute:\n  backend: cpu\n  sources: [0, 5]\n"
	out := filepath.Join(t.TempDir(), "b")
	cfg := loadCompute(t, yaml, "-out", out, "-skip-if-unchanged")
	runCompute(t, cfg)
	part := filepath.Join(out, output.DistancesDir, "part-00000.parquet")
	good := flipMiddleBit(t, part)
	res, logs, err := computeLogged(t, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Skipped {
		t.Fatal("a damaged output was taken as up to date")
	}
	if !strings.Contains(logs.String(), "not up to date") || !strings.Contains(logs.String(), "changed since the run") {
		t.Errorf("the log does not say why it computed again:\n%s", logs)
	}
	if again, _ := os.ReadFile(part); !bytes.Equal(again, good) {
		t.Error("the part file was not written again")
	}
	if res := runCompute(t, cfg); !res.Skipped {
		t.Error("the repaired output was not taken as up to date")
	}
}

func mustGenerate(t *testing.T, spec string) *graph.EdgeList {
	t.Helper()
	g, err := input.Generate(spec)
	if err != nil {
		t.Fatal(err)
	}
	return g.Edges
}

func TestComputeErrorsAndExitCodes(t *testing.T) {
	negative := stagetest.WriteFile(t, "neg.gr", "p sp 3 3\na 1 2 4\na 2 3 -2\na 1 3 5\n")
	cycle := stagetest.WriteFile(t, "cycle.gr", "p sp 3 3\na 1 2 1\na 2 3 -2\na 3 2 1\n")
	broken := stagetest.WriteFile(t, "broken.gr", "p sp 3 2\na 1 2 4\na 2 9 1\n")
	for _, tc := range []struct {
		name    string
		args    []string
		code    stageerr.Kind
		mention string
	}{
		{"dijkstra on negative weights", []string{"-input", negative, "-algorithm", "dijkstra"}, stageerr.Config, "bellman-ford"},
		{"negative cycle", []string{"-input", cycle, "-algorithm", "bellman-ford", "-sources", "0"}, stageerr.Compute, "cycle"},
		{"negative cycle all pairs", []string{"-input", cycle, "-algorithm", "floyd-warshall", "-sources", "all"}, stageerr.Compute, "cycle"},
		{"unknown variant", []string{"-input", negative, "-algorithm", "floyd-warshall", "-variant", "sideways", "-sources", "all"}, stageerr.Config, KeyVariant},
		{"source out of range", []string{"-input", negative, "-sources", "7"}, stageerr.Config, KeySources},
		{"missing input", []string{"-input", filepath.Join(t.TempDir(), "none.gr")}, stageerr.Input, "none.gr"},
		{"malformed input", []string{"-input", broken}, stageerr.Input, "broken.gr:3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			cfg := loadCompute(t, "", append(tc.args, "-out", out, "-backend", "cpu")...)
			_, err := Run(context.Background(), cfg, stagetest.QuietLog, io.Discard)
			if code := stageerr.KindOf(err); code != tc.code || !strings.Contains(err.Error(), tc.mention) {
				t.Fatalf("err = %v (kind %v), want kind %v mentioning %q", err, code, tc.code, tc.mention)
			}
			if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a failed run left %s behind", out)
			}
		})
	}
}

func TestComputeNegativeWeightsAutoPicksBellmanFord(t *testing.T) {
	input := stagetest.WriteFile(t, "neg.gr", "p sp 4 4\na 1 2 4\na 2 3 -2\na 1 3 5\na 3 4 1\n")
	out := filepath.Join(t.TempDir(), "out")
	res := runCompute(t, loadCompute(t, "", "-input", input, "-out", out, "-backend", "cpu", "-sources", "0-3"))
	if res.Manifest.Algorithm != backend.AlgorithmBellmanFord {
		t.Errorf("auto chose %s on negative weights", res.Manifest.Algorithm)
	}
	e := &graph.EdgeList{N: 4, Src: []int32{0, 1, 0, 2}, Dst: []int32{1, 2, 2, 3}, Weight: []int32{4, -2, 5, 1}}
	checkOutputs(t, out, graph.BuildCSR(e), []int32{0, 1, 2, 3})
}

func TestComputeCancelledLeavesNothing(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	cfg := loadCompute(t, "", "-generate", "grid:side=30", "-out", out, "-backend", "cpu", "-sources", "all", "-algorithm", "dijkstra")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Run(ctx, cfg, stagetest.QuietLog, io.Discard)
	if stageerr.KindOf(err) != stageerr.Interrupted {
		t.Fatalf("err = %v, want a cancellation", err)
	}
	if entries, _ := os.ReadDir(filepath.Dir(out)); len(entries) != 0 {
		t.Errorf("a cancelled run left %v", entries)
	}
}

func TestComputeAllPairsMatchesSingleSource(t *testing.T) {
	dir := t.TempDir()
	yaml := "input:\n  generate: erdos-renyi:n=60,p=0.08,seed=3\ncompute:\n  backend: cpu\n  sources: [all]\n"
	fw := runCompute(t, loadCompute(t, yaml, "-out", filepath.Join(dir, "fw"), "-algorithm", "floyd-warshall"))
	dj := runCompute(t, loadCompute(t, yaml, "-out", filepath.Join(dir, "dj"), "-algorithm", "dijkstra"))
	if fw.Manifest.Algorithm != backend.AlgorithmFloydWarshall || dj.Manifest.Algorithm != backend.AlgorithmDijkstra {
		t.Fatalf("ran %s and %s", fw.Manifest.Algorithm, dj.Manifest.Algorithm)
	}
	a, err := resultfiles.ReadResults(filepath.Join(dir, "fw", output.DistancesDir))
	if err != nil {
		t.Fatal(err)
	}
	b, err := resultfiles.ReadResults(filepath.Join(dir, "dj", output.DistancesDir))
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Trees) != 60 || len(b.Trees) != 60 {
		t.Fatalf("%d and %d trees", len(a.Trees), len(b.Trees))
	}
	for i := range a.Trees {
		if !slices.Equal(a.Trees[i].Dist, b.Trees[i].Dist) {
			t.Fatalf("source %d: Floyd-Warshall and Dijkstra distances differ", i)
		}
	}
	checkOutputs(t, filepath.Join(dir, "fw"), graph.BuildCSR(mustGenerate(t, "erdos-renyi:n=60,p=0.08,seed=3")), seq(60))
}

func seq(n int32) []int32 {
	out := make([]int32, n)
	for i := range out {
		out[i] = int32(i)
	}
	return out
}

func TestRome99ConfigEndToEnd(t *testing.T) {
	if _, ok := datasets.MirrorFile("rome99.gr"); !ok {
		t.Skipf("rome99.gr not in %s (set %s)", datasets.MirrorDir(), datasets.MirrorEnv)
	}
	rome, _ := datasets.MirrorFile("rome99.gr")
	out := filepath.Join(t.TempDir(), "rome99")
	cfg := loadCompute(t, "", "-config=../../configs/rome99.yaml", "-input", rome, "-out", out, "-backend", "cpu")
	res := runCompute(t, cfg)
	if res.Manifest.N != 3353 || res.Manifest.M != 8870 {
		t.Errorf("rome99: n=%d m=%d", res.Manifest.N, res.Manifest.M)
	}
	g, err := input.LoadGraph(context.Background(), input.Spec{Path: rome}, stagetest.QuietLog, io.Discard, true)
	if err != nil {
		t.Fatal(err)
	}
	checkOutputs(t, out, graph.BuildCSR(g.Edges), []int32{0})
}

// TestComputedLineCountsResultRows: the closing log line counts the rows of
// the result (sources x targets), not those of the tables beside it.
func TestComputedLineCountsResultRows(t *testing.T) {
	cfg := loadCompute(t, "", "-generate", "grid:side=8", "-sources", "0-2", "-summary", "-out", filepath.Join(t.TempDir(), "out"))
	logs := &stagetest.LogBuffer{}
	if _, err := Run(context.Background(), cfg, logs.Logger(), io.Discard); err != nil {
		t.Fatal(err)
	}
	if want := "rows=192"; !strings.Contains(logs.String(), want) { // 3 sources x 64 vertices
		t.Errorf("log lacks %s:\n%s", want, logs)
	}
}
