//go:build cuda

package compute

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/resultfiles"
	"github.com/pathflow/pathflow/pipeline/input"
	"github.com/pathflow/pathflow/pipeline/internal/stagetest"
	"github.com/pathflow/pathflow/pipeline/output"

	// The CUDA backend registers itself, as in the compute command.
	_ "github.com/pathflow/pathflow/internal/gpu"
)

// TestGPUOutputsEqualCPU runs whole compute stages on the GPU and on the
// CPU and compares the distances row for row, checking the GPU's parents
// against the graph: multi-source searches and all-pairs Floyd-Warshall,
// on generated graphs and on the real datasets, through every output path
// (long with all targets, targets with a cutoff, Arrow IPC).
func TestGPUOutputsEqualCPU(t *testing.T) {
	mirror := os.Getenv("PATHFLOW_DATASETS")
	if mirror == "" {
		mirror = filepath.Join("..", "..", "..", "shared", "datasets")
	}
	type gpuInput struct{ name, yaml string }
	inputs := []gpuInput{
		{"grid", "input:\n  generate: grid:side=96,lo=1,hi=1000,seed=7\n"},
		{"erdos-renyi", "input:\n  generate: erdos-renyi:n=700,p=0.01,lo=1,hi=100,seed=3\n"},
	}
	for _, f := range []string{"rome99.gr", "p2p-Gnutella04.txt"} {
		if _, err := os.Stat(filepath.Join(mirror, f)); err == nil {
			y := "input:\n  path: " + filepath.Join(mirror, f) + "\n"
			if filepath.Ext(f) == ".txt" {
				y += "  weights:\n    policy: hash\n"
			}
			inputs = append(inputs, gpuInput{f, y})
		} else {
			t.Logf("%s not in %s: skipped", f, mirror)
		}
	}
	runs := []struct{ name, gpuAlg, cpuAlg, extra string }{
		{"multi-source", "sssp", "dijkstra", "compute:\n  sources: [\"0-40\"]\n"},
		{"multi-source-cutoff", "sssp", "dijkstra", "compute:\n  sources: [\"3\", \"1\", \"2\"]\n  targets: [\"5-60\", \"0\"]\n  max_distance: 2000\n"},
		{"all-pairs", "floyd-warshall", "johnson", "compute:\n  sources: [all]\n"},
		{"all-pairs-arrow", "floyd-warshall", "johnson", "compute:\n  sources: [\"9\", \"4\", \"100-120\"]\noutput:\n  format: arrow\n"},
	}
	for _, in := range inputs {
		for _, r := range runs {
			t.Run(in.name+"/"+r.name, func(t *testing.T) {
				if in.name == "p2p-Gnutella04.txt" && r.name == "all-pairs" {
					t.Skip("118M rows: the arrow run checks Gnutella04's Floyd-Warshall rows")
				}
				dirs := map[string]string{}
				for _, b := range []struct{ backend, alg string }{{"gpu", r.gpuAlg}, {"cpu", r.cpuAlg}} {
					out := filepath.Join(t.TempDir(), b.backend)
					cfg := loadCompute(t, in.yaml+r.extra, "-backend", b.backend, "-algorithm", b.alg, "-out", out, "-quiet")
					res := runCompute(t, cfg)
					if res.Manifest.Backend != b.backend {
						t.Fatalf("ran on %s, want %s", res.Manifest.Backend, b.backend)
					}
					dirs[b.backend] = out
				}
				g := loadCompute(t, in.yaml)
				lg, err := input.LoadGraph(t.Context(), g.Input, stagetest.QuietLog, nil, true)
				if err != nil {
					t.Fatal(err)
				}
				compareRows(t, dirs["gpu"], dirs["cpu"], graph.BuildCSR(lg.Edges))
			})
		}
	}
}

// tableRows is a whole long-layout table, column by column.
type tableRows struct {
	source, vertex, parent []int32
	distance               []int64
	hasParents             bool
	bySource               map[int32]sourceRows
}

// sourceRows are the rows of one source: count rows from first, full when
// they are every vertex in id order (so vertex v is row first + v).
type sourceRows struct {
	first, count int
	full         bool
}

// distanceTo returns the distance from s to v, if the table has that row.
// A map over every row would cost more than the run it checks on
// all-pairs results.
func (r *tableRows) distanceTo(s, v int32) (int64, bool) {
	sr, ok := r.bySource[s]
	switch {
	case !ok:
		return 0, false
	case sr.full:
		if int(v) < sr.count {
			return r.distance[sr.first+int(v)], true
		}
		return 0, false
	}
	for i := sr.first; i < sr.first+sr.count; i++ {
		if r.vertex[i] == v {
			return r.distance[i], true
		}
	}
	return 0, false
}

// index fills bySource from the rows, which come source by source.
func (r *tableRows) index() {
	r.bySource = map[int32]sourceRows{}
	for i := 0; i < len(r.source); {
		j, full := i, true
		for ; j < len(r.source) && r.source[j] == r.source[i]; j++ {
			full = full && int(r.vertex[j]) == j-i
		}
		r.bySource[r.source[i]] = sourceRows{first: i, count: j - i, full: full}
		i = j
	}
}

func readRows(t *testing.T, dir string) *tableRows {
	t.Helper()
	r := &tableRows{}
	_, hasParents, err := resultfiles.ScanRows(filepath.Join(dir, output.DistancesDir), func(rows *resultfiles.ResultRows) error {
		r.source = append(r.source, rows.Source...)
		r.vertex = append(r.vertex, rows.Vertex...)
		r.distance = append(r.distance, rows.Distance...)
		r.parent = append(r.parent, rows.Parent...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	r.hasParents = hasParents
	r.index()
	return r
}

// compareRows checks that two distances tables hold the same rows and that
// the first one's parents close every distance through an arc of the graph.
func compareRows(t *testing.T, gotDir, wantDir string, g *graph.CSR) {
	t.Helper()
	got, want := readRows(t, gotDir), readRows(t, wantDir)
	if len(got.source) != len(want.source) {
		t.Fatalf("%d rows, want %d", len(got.source), len(want.source))
	}
	if !slices.Equal(got.source, want.source) || !slices.Equal(got.vertex, want.vertex) || !slices.Equal(got.distance, want.distance) {
		for i := range got.source {
			if got.source[i] != want.source[i] || got.vertex[i] != want.vertex[i] || got.distance[i] != want.distance[i] {
				t.Fatalf("row %d: (%d, %d, %d), want (%d, %d, %d)", i, got.source[i], got.vertex[i], got.distance[i],
					want.source[i], want.vertex[i], want.distance[i])
			}
		}
	}
	if !got.hasParents {
		return
	}
	for i, p := range got.parent {
		s, v, d := got.source[i], got.vertex[i], got.distance[i]
		if d == paths.Unreachable || v == s {
			if p != paths.NoParent {
				t.Fatalf("row %d: vertex %d (source or unreachable) has parent %d", i, v, p)
			}
			continue
		}
		if p < 0 || p >= g.N {
			t.Fatalf("row %d: reachable vertex %d has parent %d", i, v, p)
		}
		dp, known := got.distanceTo(s, p)
		tight := false
		for k := g.Offsets[p]; k < g.Offsets[p+1] && !tight; k++ {
			tight = g.Targets[k] == v && (!known || dp+int64(g.Weights[k]) == d)
		}
		if !tight {
			t.Fatalf("row %d: no arc %d -> %d closes distance %d from %d", i, p, v, d, s)
		}
	}
}
