package compute

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/duckdbtest"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/resultfiles"
	"github.com/pathflow/pathflow/pipeline/output"
)

// shardGridArgs is a small multi-source run with paths and a summary.
var shardGridArgs = []string{
	"-generate", "grid:side=16,lo=1,hi=100,seed=1", "-backend", "cpu",
	"-sources", "0-49", "-summary", "-paths", "3:200,40:7,20:9",
}

// runShards runs shards 0..count-1 of args into out, then finalize.
func runShards(t *testing.T, out string, count int, args ...string) *Result {
	t.Helper()
	for i := range count {
		if _, err := configThenCompute(t, append(args, "-out", out, "-shard", fmt.Sprintf("%d/%d", i, count))...); err != nil {
			t.Fatalf("shard %d/%d: %v", i, count, err)
		}
	}
	res, err := configThenCompute(t, append(args, "-out", out, "-finalize", "-shards", fmt.Sprint(count))...)
	if err != nil {
		t.Fatalf("finalize: %v", err)
	}
	return res
}

// oneShotAndShards writes args once unsharded and once in count shards,
// and returns the two folders.
func oneShotAndShards(t *testing.T, count int, args ...string) (oneShot, dataset string) {
	t.Helper()
	oneShot, dataset = filepath.Join(t.TempDir(), "one"), filepath.Join(t.TempDir(), "dataset")
	if _, err := configThenCompute(t, append(args, "-out", oneShot)...); err != nil {
		t.Fatal(err)
	}
	runShards(t, dataset, count, args...)
	return oneShot, dataset
}

// shardRows reads the distances of every shard, in shard order.
func shardRows(t *testing.T, dataset string, count int) []longRow {
	t.Helper()
	var rows []longRow
	for i := range count {
		dir := filepath.Join(dataset, output.DistancesDir, output.ShardName(i))
		if _, err := os.Stat(dir); os.IsNotExist(err) {
			continue // an empty shard writes no partition
		}
		got, _, _ := readLong(t, dir)
		rows = append(rows, got...)
	}
	return rows
}

func TestShardsThenFinalizeEqualTheOneShotRun(t *testing.T) {
	oneShot, dataset := oneShotAndShards(t, 3, shardGridArgs...)
	want, _, _ := readLong(t, filepath.Join(oneShot, output.DistancesDir))
	if got := shardRows(t, dataset, 3); !reflect.DeepEqual(got, want) {
		t.Fatalf("the shards hold %d rows that differ from the one-shot run's %d", len(got), len(want))
	}
	for _, table := range []string{output.SummaryName, output.PathsName} {
		wantRows := readTable(t, table, filepath.Join(oneShot, table+".parquet"))
		var gotRows []any
		for i := range 3 {
			part := filepath.Join(dataset, table, output.ShardName(i), "part-00000.parquet")
			gotRows = append(gotRows, readTable(t, table, part)...)
		}
		// A dataset's rows have no order across partitions: paths rows
		// keep the pairs' order within each shard only.
		sortRows(gotRows)
		sortRows(wantRows)
		if !reflect.DeepEqual(gotRows, wantRows) {
			t.Errorf("%s: shards %v, one-shot %v", table, gotRows, wantRows)
		}
	}
	m := readDatasetManifest(t, dataset)
	if m.Shards != 3 || m.Sources != 50 || len(m.ShardRuns) != 3 || m.ShardRuns[1].Sources != 17 {
		t.Errorf("dataset manifest: %d shards, %d sources, runs %+v", m.Shards, m.Sources, m.ShardRuns)
	}
	// The dataset's run spans its shards': it starts with the first.
	for _, run := range m.ShardRuns {
		if run.Host == "" || run.StartedAt == "" || run.StartedAt < m.StartedAt || run.FinishedAt > m.FinishedAt {
			t.Errorf("dataset manifest from %s to %s; shard %d ran on %q from %s to %s",
				m.StartedAt, m.FinishedAt, run.Shard, run.Host, run.StartedAt, run.FinishedAt)
		}
	}
	for _, name := range []string{output.SuccessName, output.VerticesName + ".parquet"} {
		if _, err := os.Stat(filepath.Join(dataset, name)); err != nil {
			t.Errorf("finalize wrote no %s: %v", name, err)
		}
	}

	res, err := configThenCompute(t, append(shardGridArgs, "-out", dataset, "-shard", "1/3")...)
	if err != nil || !res.Skipped {
		t.Errorf("rerunning a complete shard: skipped %v, %v; want it skipped", res != nil && res.Skipped, err)
	}
}

// readTable reads a summary or paths file as a list of rows.
func readTable(t *testing.T, table, path string) []any {
	t.Helper()
	var out []any
	var err error
	if table == output.SummaryName {
		var rows []resultfiles.SummaryRow
		rows, _, err = resultfiles.ReadSummary(path)
		for _, r := range rows {
			out = append(out, r)
		}
	} else {
		var rows []resultfiles.PathRow
		rows, _, err = resultfiles.ReadPaths(path)
		for _, r := range rows {
			out = append(out, r)
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// sortRows orders rows by their printed form.
func sortRows(rows []any) {
	slices.SortFunc(rows, func(a, b any) int { return strings.Compare(fmt.Sprint(a), fmt.Sprint(b)) })
}

func readDatasetManifest(t *testing.T, dir string) *output.DatasetManifest {
	t.Helper()
	return readJSONFile[output.DatasetManifest](t, filepath.Join(dir, output.ManifestName))
}

func TestMoreShardsThanSourcesComplete(t *testing.T) {
	args := []string{"-generate", "grid:side=4,lo=1,hi=9,seed=2", "-backend", "cpu", "-sources", "5,11", "-summary"}
	oneShot, dataset := oneShotAndShards(t, 4, args...)
	want, _, _ := readLong(t, filepath.Join(oneShot, output.DistancesDir))
	if got := shardRows(t, dataset, 4); !reflect.DeepEqual(got, want) {
		t.Errorf("4 shards of 2 sources hold %v, want %v", got, want)
	}
	if m := readDatasetManifest(t, dataset); m.ShardRuns[0].Sources != 0 || m.ShardRuns[3].Sources != 1 {
		t.Errorf("shard runs %+v, want shards 0 and 2 empty", m.ShardRuns)
	}
}

// TestShardedAllPairsWithNegativeWeights splits an all-pairs run whose
// one-shot form is Floyd-Warshall: the shards run Johnson for their rows,
// and give the same distances with valid parents.
func TestShardedAllPairsWithNegativeWeights(t *testing.T) {
	e := reweighted(t)
	args := []string{"-input", writeGR(t, "neg.gr", e), "-backend", "cpu", "-sources", "all"}
	oneShot, dataset := oneShotAndShards(t, 3, args...)
	g := graph.BuildCSR(e)
	want, _, _ := readLong(t, filepath.Join(oneShot, output.DistancesDir))
	compareLong(t, g, refDists(g, seq(e.N)), shardRows(t, dataset, 3), want)
	for i := range 3 {
		m, err := output.ReadShardManifest(output.ShardDir(dataset, i))
		if err != nil {
			t.Fatal(err)
		}
		if m.Algorithm != backend.AlgorithmJohnson {
			t.Errorf("shard %d ran %s, want johnson", i, m.Algorithm)
		}
	}
	one, err := output.ReadManifest(oneShot)
	if err != nil || one.Algorithm != backend.AlgorithmFloydWarshall {
		t.Errorf("the one-shot run used %v (%v); the test wants Floyd-Warshall", one, err)
	}
}

func TestDuckDBReadsTheShardedDatasetAsTheOneShotRun(t *testing.T) {
	duckdbtest.Require(t)
	oneShot, dataset := oneShotAndShards(t, 3, shardGridArgs...)
	ds := "read_parquet(" + duckdbtest.SQLString(filepath.Join(dataset, "distances", "*", "*.parquet")) + ", hive_partitioning = true)"
	one := "read_parquet(" + duckdbtest.SQLString(filepath.Join(oneShot, "distances", "*.parquet")) + ")"
	cols := "source, vertex, distance, parent"
	res := duckdbtest.Query(t,
		"SELECT count(*) FROM (SELECT "+cols+" FROM "+ds+" EXCEPT ALL SELECT "+cols+" FROM "+one+")",
		"SELECT count(*) FROM (SELECT "+cols+" FROM "+one+" EXCEPT ALL SELECT "+cols+" FROM "+ds+")",
		"SELECT shard, min(source), max(source), count(*) FROM "+ds+" GROUP BY shard ORDER BY shard",
	)
	if a, b := res[0].Rows[0][0], res[1].Rows[0][0]; a != int64(0) || b != int64(0) {
		t.Errorf("rows only in the dataset: %v, only in the one-shot run: %v", a, b)
	}
	// DuckDB keeps the zero-padded partition values as text.
	want := [][]any{{"0000", int64(0), int64(15), int64(16 * 256)}, {"0001", int64(16), int64(32), int64(17 * 256)}, {"0002", int64(33), int64(49), int64(17 * 256)}}
	if !reflect.DeepEqual(res[2].Rows, want) {
		t.Errorf("per shard (shard, min source, max source, rows): %v, want %v", res[2].Rows, want)
	}
}
