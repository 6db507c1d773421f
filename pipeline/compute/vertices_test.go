package compute

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/resultfiles"
	"github.com/pathflow/pathflow/internal/tables"
	"github.com/pathflow/pathflow/pipeline/input"
	"github.com/pathflow/pathflow/pipeline/internal/stagetest"
	"github.com/pathflow/pathflow/pipeline/output"
	"github.com/pathflow/pathflow/pipeline/stageerr"
)

// readVerticesTable reads a vertices.parquet with arrow-go: ids, original
// ids, and x and y (nil when the columns are absent).
func readVerticesTable(t *testing.T, path string) (ids []int32, orig []int64, x, y []int32) {
	t.Helper()
	tbl, _ := readParquet(t, path)
	for _, c := range column(t, tbl, tables.ColID) {
		ids = append(ids, c.(*array.Int32).Int32Values()...)
	}
	for _, c := range column(t, tbl, tables.ColOriginalID) {
		orig = append(orig, c.(*array.Int64).Int64Values()...)
	}
	if tbl.Schema().HasField(tables.ColLon) { // geographic: degrees, back in 10^-7
		for _, c := range column(t, tbl, tables.ColLon) {
			for _, d := range c.(*array.Float64).Float64Values() {
				x = append(x, int32(math.Round(d*graph.UnitsPerDegree)))
			}
		}
		for _, c := range column(t, tbl, tables.ColLat) {
			for _, d := range c.(*array.Float64).Float64Values() {
				y = append(y, int32(math.Round(d*graph.UnitsPerDegree)))
			}
		}
		return ids, orig, x, y
	}
	for _, c := range column(t, tbl, tables.ColX) {
		x = append(x, c.(*array.Int32).Int32Values()...)
	}
	for _, c := range column(t, tbl, tables.ColY) {
		y = append(y, c.(*array.Int32).Int32Values()...)
	}
	return ids, orig, x, y
}

func TestComputeWritesTheVerticesTable(t *testing.T) {
	gr := stagetest.WriteFile(t, "tri.gr", "p sp 3 3\na 1 2 4\na 2 3 1\na 3 1 2\n")
	co := stagetest.WriteFile(t, "tri.co", "p aux sp co 3\nv 1 -73000000 40000000\nv 2 -73000001 40000002\nv 3 -73000003 40000005\n")
	snap := stagetest.WriteFile(t, "sparse.txt", "# sparse ids\n10 20\n20 35\n35 10\n")
	for _, tc := range []struct {
		name   string
		args   []string
		orig   []int64
		x, y   []int32
		format string
	}{
		// Millionths of a degree: lon and lat, read back in 10^-7 degree.
		{"DIMACS with coordinates", []string{"-input", gr, "-coordinates", co}, []int64{1, 2, 3},
			[]int32{-730000000, -730000010, -730000030}, []int32{400000000, 400000020, 400000050}, "parquet"},
		{"SNAP original ids", []string{"-input", snap}, []int64{10, 20, 35}, nil, nil, "parquet"},
		{"generated grid", []string{"-generate", "grid:side=2"}, []int64{0, 1, 2, 3}, []int32{0, 1, 0, 1}, []int32{0, 0, 1, 1}, "parquet"},
		{"arrow output", []string{"-generate", "grid:side=2", "-output-format", "arrow"}, nil, nil, nil, "arrow"},
		{"distance matrix", []string{"-input", snap, "-output-format", "distmatrix", "-sources", "all", "-parents=false"},
			[]int64{10, 20, 35}, nil, nil, "parquet"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			res := runCompute(t, loadCompute(t, "", append(tc.args, "-out", out, "-backend", "cpu")...))
			name := output.VerticesName + "." + tc.format
			var listed bool
			for _, f := range res.Manifest.Files {
				listed = listed || f.Path == name
			}
			if !listed {
				t.Fatalf("the manifest does not list %s: %+v", name, res.Manifest.Files)
			}
			if tc.format != "parquet" {
				return
			}
			ids, orig, x, y := readVerticesTable(t, filepath.Join(out, name))
			if !slices.Equal(ids, seq(int32(len(tc.orig)))) || !slices.Equal(orig, tc.orig) || !slices.Equal(x, tc.x) || !slices.Equal(y, tc.y) {
				t.Errorf("vertices: ids %v, original %v, x %v, y %v; want original %v, x %v, y %v", ids, orig, x, y, tc.orig, tc.x, tc.y)
			}
		})
	}
}

func TestComputeOriginalIDsNameTheSameVerticesAsDenseIDs(t *testing.T) {
	snap := stagetest.WriteFile(t, "sparse.txt", "10 20 3\n20 35 4\n35 10 1\n10 35 9\n35 40 2\n")
	dir := t.TempDir()
	original := runCompute(t, loadCompute(t, "", "-input", snap, "-backend", "cpu", "-out", filepath.Join(dir, "original"),
		"-ids", "original", "-sources", "20,10", "-targets", "40,10", "-paths", "20:40,10:35"))
	dense := runCompute(t, loadCompute(t, "", "-input", snap, "-backend", "cpu", "-out", filepath.Join(dir, "dense"),
		"-sources", "1,0", "-targets", "3,0", "-paths", "1:3,0:2"))
	a, _, _ := readLong(t, filepath.Join(dir, "original", output.DistancesDir))
	b, _, _ := readLong(t, filepath.Join(dir, "dense", output.DistancesDir))
	want := []longRow{{1, 3, 6, 2}, {1, 0, 5, 2}, {0, 3, 9, 2}, {0, 0, 0, paths.NoParent}}
	if !slices.Equal(a, want) || !slices.Equal(b, want) {
		t.Errorf("original ids give %v, dense ids %v; want %v", a, b, want)
	}
	pa, _, err := resultfiles.ReadPaths(filepath.Join(dir, "original", output.PathsName+".parquet"))
	if err != nil {
		t.Fatal(err)
	}
	pb, _, err := resultfiles.ReadPaths(filepath.Join(dir, "dense", output.PathsName+".parquet"))
	if err != nil {
		t.Fatal(err)
	}
	if len(pa) != 2 || !slices.Equal(pa[0].Vertices, []int32{1, 2, 3}) || !slices.Equal(pa[1].Vertices, []int32{0, 1, 2}) ||
		!slices.EqualFunc(pa, pb, func(x, y resultfiles.PathRow) bool { return x.Cost == y.Cost && slices.Equal(x.Vertices, y.Vertices) }) {
		t.Errorf("paths %+v and %+v", pa, pb)
	}
	if original.Manifest.Sources != 2 || dense.Manifest.Sources != 2 {
		t.Errorf("sources %d and %d", original.Manifest.Sources, dense.Manifest.Sources)
	}
}

func TestComputeMessagesNameOriginalIDs(t *testing.T) {
	cycle := stagetest.WriteFile(t, "cycle.txt", "10 20 1\n20 35 -2\n35 20 1\n")
	for _, tc := range []struct {
		name string
		args []string
		code stageerr.Kind
		want string
	}{
		{"negative cycle", []string{"-algorithm", "bellman-ford", "-sources", "0"}, stageerr.Compute,
			"negative cycle through vertex 20 (dense id 1): shortest paths are undefined; the cycle in input ids: 20 -> 35 -> 20"},
		{"negative cycle all pairs", []string{"-algorithm", "floyd-warshall", "-sources", "all"}, stageerr.Compute,
			"negative cycle through vertex"},
		{"unknown original source", []string{"-ids", "original", "-sources", "11"}, stageerr.Config,
			`config key "compute.sources": source 11: no vertex has that original id`},
		{"unknown original path end", []string{"-ids", "original", "-sources", "10", "-paths", "10:36"}, stageerr.Config,
			`config key "compute.paths": pair 10:36: target 36: no vertex has that original id`},
		{"path source not among sources", []string{"-ids", "original", "-sources", "10", "-paths", "20:35"}, stageerr.Config,
			"the source of the pair from vertex 20 (dense id 1) to vertex 35 (dense id 2) is not among compute.sources"},
		{"dense id out of range", []string{"-sources", "3"}, stageerr.Config, "source 3 is outside 0..2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := loadCompute(t, "", append(tc.args, "-input", cycle, "-backend", "cpu", "-out", filepath.Join(t.TempDir(), "o"))...)
			_, err := Run(context.Background(), cfg, stagetest.QuietLog, io.Discard)
			if stageerr.KindOf(err) != tc.code || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v (kind %v), want kind %v saying %q", err, stageerr.KindOf(err), tc.code, tc.want)
			}
		})
	}
}

// TestComputeFilesDependOnlyOnTheResult runs the same computation with
// different worker counts, output folders and input locations: every
// data file must be byte-identical, and its metadata must hold only the
// keys that determine the result.
func TestComputeFilesDependOnlyOnTheResult(t *testing.T) {
	dir := t.TempDir()
	yaml := "compute:\n  backend: cpu\n  sources: [0-20]\n  targets: [all]\n  paths: [0:99, '3:50']\n  summary: true\n" +
		"output:\n  part_rows: 700\n  batch_rows: 300\n"
	spec := "grid:side=10,seed=5"
	one := runCompute(t, loadCompute(t, yaml, "-generate", spec, "-workers", "1", "-out", filepath.Join(dir, "one")))
	many := runCompute(t, loadCompute(t, yaml, "-generate", spec, "-workers", "5", "-out", filepath.Join(dir, "many")))
	if one.Manifest.Workers != 1 || many.Manifest.Workers != 5 {
		t.Fatalf("workers %d and %d", one.Manifest.Workers, many.Manifest.Workers)
	}
	if len(one.Manifest.Files) < 5 || len(one.Manifest.Files) != len(many.Manifest.Files) {
		t.Fatalf("files %+v and %+v", one.Manifest.Files, many.Manifest.Files)
	}
	for i, f := range one.Manifest.Files {
		g := many.Manifest.Files[i]
		if f.Path != g.Path || f.SHA256 != g.SHA256 || f.Bytes != g.Bytes {
			t.Errorf("%s differs between 1 and 5 workers (%s, %s)", f.Path, f.SHA256, g.SHA256)
		}
	}
	if one.Manifest.ConfigSHA256 != many.Manifest.ConfigSHA256 {
		t.Error("the settings checksum depends on the worker count")
	}
	wantKeys := []string{MetaAlgorithm, MetaConfigSHA256, input.MetaDirected, input.MetaInputFile, input.MetaInputFormat,
		input.MetaInputSHA256, MetaLayout, input.MetaM, MetaMaxDistance, input.MetaN, MetaTargets, MetaVariant, input.MetaVersion, MetaVertexIDBase, input.MetaWeighting}
	slices.Sort(wantKeys)
	for _, f := range one.Manifest.Files {
		_, meta := readParquet(t, filepath.Join(dir, "one", f.Path))
		var keys []string
		for k := range meta {
			if !strings.HasPrefix(k, "ARROW:") {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		if !slices.Equal(keys, wantKeys) {
			t.Errorf("%s: metadata keys %v, want %v", f.Path, keys, wantKeys)
		}
	}
}

// TestSettingsChecksumCoversWhatChangesTheResult changes one key at a time:
// the checksum must change for every key but the run-only ones and log.*.
func TestSettingsChecksumCoversWhatChangesTheResult(t *testing.T) {
	base, err := config.Read("compute", Keys(), config.Source{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := settingsChecksum(base)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range Keys() {
		l, err := config.Read("compute", Keys(), config.Source{})
		if err != nil {
			t.Fatal(err)
		}
		l.V.Set(k.Name, otherValue(k.Default))
		got, err := settingsChecksum(l)
		if err != nil {
			t.Fatal(err)
		}
		runOnly := slices.Contains(runOnlyKeys, k.Name) || strings.HasPrefix(k.Name, "log.")
		if runOnly && got != want {
			t.Errorf("changing %s, which changes no result, changes the settings checksum", k.Name)
		}
		if !runOnly && got == want {
			t.Errorf("changing %s leaves the settings checksum as it was", k.Name)
		}
	}
}

// TestSettingsChecksumLeavesOutRunFacts names the keys: where a run goes,
// on which backend and devices, with how many workers, logging how, leaves
// the checksum as it is, from flags or the environment; a key that changes
// the result's bytes changes it.
func TestSettingsChecksumLeavesOutRunFacts(t *testing.T) {
	sum := func(src config.Source) string {
		t.Helper()
		l, err := config.Read("compute", Keys(), src)
		if err != nil {
			t.Fatal(err)
		}
		s, err := settingsChecksum(l)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	base := sum(config.Source{Args: []string{"-backend", "cpu"}})
	for _, src := range []config.Source{
		{Args: []string{"-backend", "gpu"}},
		{Args: []string{"-backend", "auto"}},
		{Env: []string{"PATHFLOW_COMPUTE_BACKEND=gpu"}},
		{Args: []string{"-backend", "gpu", "-devices", "0,1", "-gpu-memory-limit", "1GiB"}},
		{Args: []string{"-backend", "cpu", "-workers", "3"}},
		{Args: []string{"-backend", "cpu", "-log-format", "json", "-quiet"}},
		{Args: []string{"-backend", "cpu", "-out", "elsewhere", "-overwrite", output.OverwriteReplace, "-skip-if-unchanged"}},
	} {
		if got := sum(src); got != base {
			t.Errorf("args %q, environment %q change the settings checksum", src.Args, src.Env)
		}
	}
	for _, args := range [][]string{
		{"-algorithm", "dijkstra"}, {"-variant", "heap"}, {"-block-size", "16"}, {"-sources", "1"}, {"-targets", "2"},
		{"-ids", "original"}, {"-max-distance", "5"}, {"-parents=false"}, {"-paths", "0:1"}, {"-summary"},
		{"-layout", "wide"}, {"-output-format", "arrow"}, {"-compression", "zstd"}, {"-weights", "hash"}, {"-directed=false"},
	} {
		if got := sum(config.Source{Args: append([]string{"-backend", "cpu"}, args...)}); got == base {
			t.Errorf("%q leaves the settings checksum as it was", args)
		}
	}
}

// otherValue returns a value of the type of d that differs from it.
func otherValue(d any) any {
	switch x := d.(type) {
	case string:
		return x + "x"
	case int:
		return x + 1
	case bool:
		return !x
	case float64:
		return x + 1
	case []string:
		return append(slices.Clone(x), "9")
	}
	panic("no other value for a key of this type")
}

// An all-pairs backend (the GPU's Floyd-Warshall) names a vertex on the cycle
// but traces no cycle.
func TestUntracedNegativeCycleNamesTheOriginalID(t *testing.T) {
	ids := input.NewVertexIDs(3, &graph.Vertices{OriginalID: []int64{10, 20, 35}})
	inner := &backend.NegativeCycleError{Backend: "gpu", Vertex: 2} // traces no cycle
	err := nameCycleVertex(fmt.Errorf("running: %w", inner), ids)
	if want := "negative cycle through vertex 35 (dense id 2): shortest paths are undefined"; err.Error() != want {
		t.Errorf("err = %q, want %q", err, want)
	}
	var got *backend.NegativeCycleError
	if !errors.As(err, &got) || got != inner {
		t.Error("the backend's error is no longer in the chain")
	}
	other := errors.New("device lost")
	if nameCycleVertex(other, ids) != other {
		t.Error("an error about no vertex was rewritten")
	}
}
