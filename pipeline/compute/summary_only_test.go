package compute

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/internal/resultfiles"
	"github.com/pathflow/pathflow/pipeline/output"
	"github.com/pathflow/pathflow/pipeline/stageerr"
)

// TestComputeSummaryOnlyWritesTheFullRunsSummary checks output.distances:
// false: no distances folder, a manifest listing the summary and vertices
// tables alone, and a summary byte for byte a full run's, over whole trees,
// with targets, within a cutoff and with paths beside it.
func TestComputeSummaryOnlyWritesTheFullRunsSummary(t *testing.T) {
	gr, co := namedGraph(t, 300)
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"whole trees", []string{"-sources", "all"}},
		{"targets", []string{"-sources", "0-49", "-targets", "100-199"}},
		{"cutoff", []string{"-sources", "0-49", "-max-distance", "150"}},
		{"cutoff, wide", []string{"-sources", "0-49", "-max-distance", "150", "-layout", "wide"}},
		{"paths", []string{"-sources", "0-9", "-paths", "3:200"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			base := append([]string{"-input", gr, "-coordinates", co, "-backend", "cpu", "-summary"}, tc.args...)
			full := runCompute(t, loadCompute(t, "", append(base, "-out", filepath.Join(dir, "full"))...))
			only := runCompute(t, loadCompute(t, "", append(base, "-out", filepath.Join(dir, "only"), "-distances=false")...))
			want, err := os.ReadFile(filepath.Join(dir, "full", output.SummaryName+".parquet"))
			if err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(filepath.Join(dir, "only", output.SummaryName+".parquet"))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("the summary-only run's summary (%d bytes) differs from the full run's (%d bytes)", len(got), len(want))
			}
			if _, err := os.Stat(filepath.Join(dir, "only", output.DistancesDir)); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("the summary-only run has a distances folder (%v)", err)
			}
			var listed []string
			for _, f := range only.Manifest.Files {
				listed = append(listed, f.Path)
			}
			wantListed := []string{output.VerticesName + ".parquet", output.SummaryName + ".parquet"}
			if slices.Contains(tc.args, "-paths") {
				wantListed = []string{output.VerticesName + ".parquet", output.PathsName + ".parquet", output.SummaryName + ".parquet"}
			}
			if !slices.Equal(listed, wantListed) {
				t.Errorf("the manifest lists %v, want %v", listed, wantListed)
			}
			if !listsDistances(full.Manifest.Files) || listsDistances(only.Manifest.Files) {
				t.Errorf("the full run lists distances: %v; the summary-only run: %v", listsDistances(full.Manifest.Files), listsDistances(only.Manifest.Files))
			}
			if !slices.Equal(full.Manifest.Reachable, only.Manifest.Reachable) {
				t.Errorf("reachable counts %v and %v", full.Manifest.Reachable, only.Manifest.Reachable)
			}
		})
	}
}

// TestComputeSkipsOnlyAnOutputWithTheSameTables checks that output.distances,
// which the settings checksum leaves out, still decides whether an
// earlier output is current.
func TestComputeSkipsOnlyAnOutputWithTheSameTables(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	args := []string{"-generate", "grid:side=4", "-backend", "cpu", "-out", out, "-summary", "-skip-if-unchanged"}
	if res := runCompute(t, loadCompute(t, "", append(args, "-distances=false")...)); res.Skipped {
		t.Fatal("the first run was skipped")
	}
	if res := runCompute(t, loadCompute(t, "", append(args, "-distances=false")...)); !res.Skipped {
		t.Error("the same summary-only run again was not skipped")
	}
	res := runCompute(t, loadCompute(t, "", args...))
	if res.Skipped || !listsDistances(res.Manifest.Files) {
		t.Fatalf("a run with distances over a summary-only output: skipped %v, files %+v", res.Skipped, res.Manifest.Files)
	}
	if res := runCompute(t, loadCompute(t, "", args...)); !res.Skipped {
		t.Error("the same full run again was not skipped")
	}
	if res := runCompute(t, loadCompute(t, "", append(args, "-distances=false")...)); res.Skipped || listsDistances(res.Manifest.Files) {
		t.Errorf("a summary-only run over a full output: skipped %v", res.Skipped)
	}
}

func TestComputeRefusesADistancesFreeRunWithNothingToWrite(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-distances=false"}, `config key "output.distances": false leaves nothing to write`},
		{[]string{"-distances=false", "-output-format", "distmatrix", "-sources", "all", "-parents=false"}, `config key "output.distances": false writes no distances`},
	} {
		_, err := configThenCompute(t, append(tc.args, "-generate", "grid:side=3", "-out", filepath.Join(t.TempDir(), "o"))...)
		if stageerr.KindOf(err) != stageerr.Config || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: err = %v (kind %v), want kind %v saying %q", tc.args, err, stageerr.KindOf(err), stageerr.Config, tc.want)
		}
	}
}

// TestShardedSummaryOnlyRun checks a summary-only run in shards: each
// shard writes its summary partition and the whole vertices table (the
// one-shot run only its sources'), and
// finalize refuses the shards under a config that asks for distances.
func TestShardedSummaryOnlyRun(t *testing.T) {
	args := []string{"-generate", "grid:side=6", "-backend", "cpu", "-sources", "0-9", "-summary", "-distances=false"}
	oneShot, dataset := oneShotAndShards(t, 2, args...)
	want, _, err := resultfiles.ReadSummary(filepath.Join(oneShot, output.SummaryName+".parquet"))
	if err != nil {
		t.Fatal(err)
	}
	var got []resultfiles.SummaryRow
	for i := range 2 {
		rows, _, err := resultfiles.ReadSummary(filepath.Join(dataset, output.SummaryName, output.ShardName(i), "part-00000.parquet"))
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, rows...)
	}
	if !slices.EqualFunc(got, want, func(a, b resultfiles.SummaryRow) bool {
		return a.Source == b.Source && a.Reachable == b.Reachable && a.Eccentricity == b.Eccentricity && sameFloat(a.Closeness, b.Closeness)
	}) {
		t.Errorf("the shards' summary %+v differs from the one-shot run's %+v", got, want)
	}
	if _, err := os.Stat(filepath.Join(dataset, output.DistancesDir)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the dataset has a distances folder (%v)", err)
	}
	ids, _, _, _ := readVerticesTable(t, filepath.Join(dataset, output.VerticesName+".parquet"))
	named, _, _, _ := readVerticesTable(t, filepath.Join(oneShot, output.VerticesName+".parquet"))
	if len(ids) != 36 || !slices.Equal(named, seq(10)) {
		t.Errorf("the dataset's vertices table holds %d vertices, want all 36; the one-shot run's %v, want its sources", len(ids), named)
	}
	_, err = configThenCompute(t, append(args[:len(args)-1], "-out", dataset, "-finalize", "-shards", "2")...)
	if stageerr.KindOf(err) != stageerr.Incomplete || !strings.Contains(err.Error(), "written without distances") {
		t.Errorf("finalize with distances over summary-only shards: %v (kind %v)", err, stageerr.KindOf(err))
	}
}
