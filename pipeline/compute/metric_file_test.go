package compute

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/datasets"
	"github.com/pathflow/pathflow/formats"
	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/graph/graphtest"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/tables"
	"github.com/pathflow/pathflow/pipeline/ingest"
	"github.com/pathflow/pathflow/pipeline/input"
	"github.com/pathflow/pathflow/pipeline/internal/stagetest"
	"github.com/pathflow/pathflow/pipeline/output"
)

// romeTimes writes a travel-time file of rome99 with the DIMACS writer:
// its arcs in order, each weighing its length in coarse steps (a tenth of
// a unit per 40 of length, rounded up), so that many paths tie on the
// time and the length decides between them. It returns the file, the
// lengths in the file's arc order and the graph of the times with the
// lengths as its metric.
func romeTimes(t *testing.T, rome string) (string, []int32, *graph.CSR) {
	t.Helper()
	f, err := os.Open(rome)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	e, err := formats.ReadDIMACS(f, rome)
	if err != nil {
		t.Fatal(err)
	}
	times := &graph.EdgeList{N: e.N, Src: e.Src, Dst: e.Dst, Weight: make([]int32, e.M())}
	for a, length := range e.Weight {
		times.Weight[a] = (length + 39) / 40
	}
	path := filepath.Join(t.TempDir(), "rome99-t.gr")
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := formats.WriteDIMACS(out, times); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	withLengths := *times
	withLengths.Metric = e.Weight
	return path, e.Weight, graph.BuildCSR(&withLengths)
}

// TestMetricFileOnRome99 gives rome99 as a pair of DIMACS files of one
// network, travel times (written by the test) and lengths (the dataset's
// own file): ingest stores the lengths as a column and its hierarchy
// carries them; compute reports them from the ingest output (ch from the
// stored hierarchy) and beside the raw pair, with ch and Dijkstra alike,
// and every cell equals the path shortest by (time, length) that
// graphtest.Lexicographic finds.
func TestMetricFileOnRome99(t *testing.T) {
	rome, ok := datasets.MirrorFile("rome99.gr")
	if !ok {
		t.Skipf("rome99.gr not in %s (set %s)", datasets.MirrorDir(), datasets.MirrorEnv)
	}
	times, lengths, g := romeTimes(t, rome)
	pair := []string{"-input", times, "-metric-file", rome, "-metric-name", "length", "-metric-unit", "m"}

	dir, m := ingestTo(t, append(pair, "-hierarchy", "on")...)
	if m.Hierarchy == nil || !m.Hierarchy.Stored || m.Hierarchy.Metric != "length" {
		t.Fatalf("stored hierarchy %+v: want one carrying the length", m.Hierarchy)
	}
	col, err := tables.ReadArcColumn(tables.GraphFilesIn(dir, tables.Parquet).Edges, "length")
	if err != nil {
		t.Fatal(err)
	}
	if col.Unit != "m" || !slices.Equal(col.Int32, lengths) {
		t.Fatalf("edges column length: unit %q, values not the rome99 file's", col.Unit)
	}

	sources := randomIDs(g.N, 4, 11)
	want := map[int32][2][]int64{}
	for _, s := range strings.Split(sources, ",") {
		v64, err := strconv.ParseInt(s, 10, 32)
		if err != nil {
			t.Fatal(err)
		}
		v := int32(v64)
		d, l := graphtest.Lexicographic(g, v)
		want[v] = [2][]int64{d, l}
		// Where no two shortest paths differ in length, any tie rule
		// would pass.
		if ties := lengthTies(g, d, l); ties < 20 {
			t.Fatalf("source %d: %d vertices end shortest paths of different lengths, want the test to meet many", v, ties)
		}
	}
	for _, tc := range []struct {
		name  string
		input []string
	}{
		{"ingest output", []string{"-input", dir}},
		{"raw pair", pair},
	} {
		for _, alg := range []string{backend.AlgorithmCH, backend.AlgorithmDijkstra} {
			out := filepath.Join(t.TempDir(), alg)
			res := runCompute(t, loadCompute(t, "", append(tc.input, "-out", out, "-backend", "cpu",
				"-algorithm", alg, "-sources", sources, "-metrics", "length")...))
			if alg == backend.AlgorithmCH && tc.name == "ingest output" {
				usedStored(t, res.Manifest)
			}
			rows := readMetricRows(t, filepath.Join(out, output.DistancesDir), "length", "m")
			if len(rows) != len(want)*int(g.N) {
				t.Fatalf("%s, %s: %d rows, want %d", tc.name, alg, len(rows), len(want)*int(g.N))
			}
			for _, r := range rows {
				w := want[r.Source]
				if r.Dist != w[0][r.Vertex] || r.Metric != w[1][r.Vertex] {
					t.Fatalf("%s, %s: %d -> %d: (%d, %d), shortest by (time, length) is (%d, %d)",
						tc.name, alg, r.Source, r.Vertex, r.Dist, r.Metric, w[0][r.Vertex], w[1][r.Vertex])
				}
			}
		}
	}
}

// lengthTies counts the vertices that two shortest paths by time from
// one source, whose times and lengths are dist and length, reach over
// arcs that give different lengths: where the tie rule decides.
func lengthTies(g *graph.CSR, dist, length []int64) int {
	ties := 0
	ends := map[int32]int64{}
	for u := range g.N {
		if dist[u] == paths.Unreachable {
			continue
		}
		for a := g.Offsets[u]; a < g.Offsets[u+1]; a++ {
			v := g.Targets[a]
			if dist[u]+int64(g.Weights[a]) != dist[v] {
				continue
			}
			sum := length[u] + int64(g.Metric[a])
			if first, seen := ends[v]; !seen {
				ends[v] = sum
			} else if first != sum && first != -1 {
				ties++
				ends[v] = -1
			}
		}
	}
	return ties
}

// TestMetricFileRefusals: a metric file is not taken beside an ingest
// output (its metrics are columns already) nor by ingest's one-file
// conversions, and compute names the key when a DIMACS input has no
// metric of the name asked.
func TestMetricFileRefusals(t *testing.T) {
	times := stagetest.WriteFile(t, "t.gr", "p sp 3 3\na 1 2 5\na 2 3 5\na 3 1 5\n")
	lengths := stagetest.WriteFile(t, "d.gr", "p sp 3 3\na 1 2 50\na 2 3 40\na 3 1 30\n")
	dir, _ := ingestTo(t, "-input", times, "-metric-file", lengths, "-metric-name", "length")

	_, err := Run(t.Context(), loadCompute(t, "", "-input", dir, "-metric-file", lengths, "-metric-name", "length",
		"-out", filepath.Join(t.TempDir(), "o"), "-backend", "cpu", "-metrics", "length"), stagetest.QuietLog, io.Discard)
	var cfgErr *config.Error
	if !errors.As(err, &cfgErr) || cfgErr.Key != input.KeyInputMetricFile {
		t.Errorf("a metric file beside an ingest output: %v, want an error of %s", err, input.KeyInputMetricFile)
	}

	l, err := config.Load("ingest", ingest.Keys(), []string{"-input", times, "-metric-file", lengths, "-metric-name", "length", "-output-format", "binary"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ingest.ConfigFrom(l); !errors.As(err, &cfgErr) || cfgErr.Key != input.KeyInputMetricFile {
		t.Errorf("a metric file with a binary conversion: %v, want an error of %s", err, input.KeyInputMetricFile)
	}

	_, err = Run(t.Context(), loadCompute(t, "", "-input", times, "-metric-file", lengths, "-metric-name", "length",
		"-out", filepath.Join(t.TempDir(), "o"), "-backend", "cpu", "-metrics", "time"), stagetest.QuietLog, io.Discard)
	if !errors.As(err, &cfgErr) || cfgErr.Key != KeyMetrics || !strings.Contains(err.Error(), input.KeyInputMetricFile) {
		t.Errorf("a metric the pair does not have: %v, want an error of %s naming %s", err, KeyMetrics, input.KeyInputMetricFile)
	}
}
