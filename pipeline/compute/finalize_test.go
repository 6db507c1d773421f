package compute

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/pipeline/output"
	"github.com/pathflow/pathflow/pipeline/stageerr"
)

var finalizeArgs = []string{"-generate", "grid:side=8,lo=1,hi=50,seed=3", "-backend", "cpu", "-sources", "0-9"}

// finalizeError runs finalize over dataset for 3 shards and returns its
// error, which must be an *IncompleteError with exit code stageerr.Incomplete
// when not nil.
func finalizeError(t *testing.T, dataset string) *stageerr.IncompleteError {
	t.Helper()
	_, err := configThenCompute(t, append(finalizeArgs, "-out", dataset, "-finalize", "-shards", "3")...)
	if err == nil {
		return nil
	}
	var inc *stageerr.IncompleteError
	if !errors.As(err, &inc) || stageerr.KindOf(err) != stageerr.Incomplete {
		t.Fatalf("finalize failed with %v (kind %v), want an incomplete dataset (kind %v)", err, stageerr.KindOf(err), stageerr.Incomplete)
	}
	return inc
}

func runShard(t *testing.T, dataset, shard string, extra ...string) {
	t.Helper()
	args := append(append(finalizeArgs, "-out", dataset, "-shard", shard), extra...)
	if _, err := configThenCompute(t, args...); err != nil {
		t.Fatalf("shard %s: %v", shard, err)
	}
}

// wantProblems checks that finalize failed naming exactly these problems
// (each a substring of one line, in order).
func wantProblems(t *testing.T, dataset string, want ...string) {
	t.Helper()
	inc := finalizeError(t, dataset)
	if inc == nil {
		t.Fatalf("finalize succeeded; want it to report %q", want)
	}
	if len(inc.Problems) != len(want) {
		t.Fatalf("finalize reports %q, want %d problems like %q", inc.Problems, len(want), want)
	}
	for i, w := range want {
		if !strings.Contains(inc.Problems[i], w) {
			t.Errorf("problem %d is %q, want it to say %q", i, inc.Problems[i], w)
		}
	}
	if msg := inc.Error(); !strings.Contains(msg, dataset) || !strings.Contains(msg, "rerun") {
		t.Errorf("message %q names neither the folder nor what to do", msg)
	}
}

func TestFinalizeReportsMissingStaleAndDamagedShards(t *testing.T) {
	dataset := filepath.Join(t.TempDir(), "dataset")
	runShard(t, dataset, "0/3")
	runShard(t, dataset, "2/3")
	wantProblems(t, dataset, "shard=0001 missing (no _shards/shard=0001/_SUCCESS)")

	runShard(t, dataset, "1/3", "-max-distance", "40") // other settings
	wantProblems(t, dataset, "shard=0001 stale (settings checksum")

	runShard(t, dataset, "1/3") // not skipped: it is stale
	if inc := finalizeError(t, dataset); inc != nil {
		t.Fatalf("finalize after the rerun: %v", inc)
	}

	part := filepath.Join(dataset, output.DistancesDir, output.ShardName(0), "part-00000.parquet")
	if err := os.Remove(part); err != nil {
		t.Fatal(err)
	}
	extra := filepath.Join(dataset, output.DistancesDir, output.ShardName(2), "part-00009.parquet")
	if err := os.WriteFile(extra, []byte("not ours"), 0o644); err != nil {
		t.Fatal(err)
	}
	stray := filepath.Join(dataset, output.DistancesDir, output.ShardName(7))
	if err := os.Mkdir(stray, 0o755); err != nil {
		t.Fatal(err)
	}
	wantProblems(t, dataset,
		"shard=0000 damaged (distances/shard=0000/part-00000.parquet is missing)",
		"shard=0002 damaged (distances/shard=0002/part-00009.parquet is not in the shard's manifest)",
		"distances/shard=0007 is beyond the 3 shards")

	// Rewriting a shard withdraws the dataset's _SUCCESS until finalize.
	runShard(t, dataset, "0/3")
	if _, err := os.Stat(filepath.Join(dataset, output.SuccessName)); !os.IsNotExist(err) {
		t.Errorf("after a shard was rewritten the dataset's _SUCCESS is still there (%v)", err)
	}
	os.Remove(extra)
	os.Remove(stray)
	if inc := finalizeError(t, dataset); inc != nil {
		t.Fatalf("finalize after the repairs: %v", inc)
	}
}

func TestShardsRefuseAnUnshardedOutputFolder(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	if _, err := configThenCompute(t, append(finalizeArgs, "-out", out)...); err != nil {
		t.Fatal(err)
	}
	_, err := configThenCompute(t, append(finalizeArgs, "-out", out, "-shard", "0/2")...)
	if stageerr.KindOf(err) != stageerr.Output || !strings.Contains(err.Error(), output.KeyOutputDir) {
		t.Errorf("a shard into an unsharded output: %v (kind %v), want an output error naming %s", err, stageerr.KindOf(err), output.KeyOutputDir)
	}
}

func TestUnshardedRunRefusesAShardedDataset(t *testing.T) {
	dataset := filepath.Join(t.TempDir(), "dataset")
	runShard(t, dataset, "0/2")
	part := filepath.Join(dataset, output.DistancesDir, output.ShardName(0), "part-00000.parquet")
	_, err := configThenCompute(t, append(finalizeArgs, "-out", dataset)...)
	if stageerr.KindOf(err) != stageerr.Output || !strings.Contains(err.Error(), output.KeyOutputDir) {
		t.Errorf("an unsharded run into a sharded dataset: %v (kind %v), want an output error naming %s", err, stageerr.KindOf(err), output.KeyOutputDir)
	}
	if _, err := os.Stat(part); err != nil {
		t.Errorf("the committed shard is gone: %v", err)
	}
}

// Shards written with compute.backend cpu finalize under an environment
// that sets another backend: the backend is a fact of the run, not a
// setting of the result, so the shards are current.
func TestFinalizeUnderAnotherBackend(t *testing.T) {
	dataset := filepath.Join(t.TempDir(), "dataset")
	for _, shard := range []string{"0/3", "1/3", "2/3"} {
		runShard(t, dataset, shard)
	}
	t.Setenv("PATHFLOW_COMPUTE_BACKEND", "auto")
	t.Setenv("PATHFLOW_COMPUTE_WORKERS", "1")
	args := append(slices.Clone(finalizeArgs), "-out", dataset, "-finalize", "-shards", "3")
	args = slices.DeleteFunc(args, func(a string) bool { return a == "-backend" || a == "cpu" })
	if _, err := configThenCompute(t, args...); err != nil {
		t.Fatalf("finalize with PATHFLOW_COMPUTE_BACKEND=auto: %v (kind %v)", err, stageerr.KindOf(err))
	}
	if _, err := os.Stat(filepath.Join(dataset, output.SuccessName)); err != nil {
		t.Errorf("no _SUCCESS after finalize: %v", err)
	}
}
