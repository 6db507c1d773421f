package compute

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/pipeline/output"
)

// TestShardDamagedInPlaceIsComputedAgain: a shard whose part file was
// damaged in place, its size unchanged, is not complete: shardState says
// which file changed, and a rerun of its index computes and writes it
// again instead of skipping it.
func TestShardDamagedInPlaceIsComputedAgain(t *testing.T) {
	dataset := filepath.Join(t.TempDir(), "dataset")
	args := []string{"-generate", "grid:side=8,lo=1,hi=50,seed=3", "-backend", "cpu", "-sources", "0-9", "-out", dataset}
	runIndex := func(shard string) *Result {
		t.Helper()
		res, err := configThenCompute(t, append(args, "-shard", shard)...)
		if err != nil {
			t.Fatalf("shard %s: %v", shard, err)
		}
		return res
	}
	runIndex("0/2")
	runIndex("1/2")
	rel := output.DistancesDir + "/" + output.ShardName(1) + "/part-00000.parquet"
	part := filepath.Join(dataset, filepath.FromSlash(rel))
	good := flipMiddleBit(t, part)

	m, err := output.ReadShardManifest(output.ShardDir(dataset, 1))
	if err != nil {
		t.Fatal(err)
	}
	_, problem := shardState(dataset, 1, 2, m.InputSHA256, m.ConfigSHA256, true)
	if want := "damaged (" + rel + " has SHA-256 "; !strings.HasPrefix(problem, want) {
		t.Errorf("shardState of the damaged shard = %q, want it to begin %q", problem, want)
	}
	if _, problem := shardState(dataset, 0, 2, m.InputSHA256, m.ConfigSHA256, true); problem != "" {
		t.Errorf("shardState of the undamaged shard = %q, want complete", problem)
	}

	if res := runIndex("1/2"); res.Skipped {
		t.Fatal("the rerun of the damaged shard was skipped")
	}
	if again, _ := os.ReadFile(part); !bytes.Equal(again, good) {
		t.Error("the damaged part file was not written again")
	}
	if res := runIndex("1/2"); !res.Skipped {
		t.Error("the rerun of the repaired shard was not skipped")
	}
}
