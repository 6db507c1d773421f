package compute

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/pipeline/internal/stagetest"
	"github.com/pathflow/pathflow/pipeline/output"
)

func TestBlockBoundsSplitEvenlyAndCoverEverything(t *testing.T) {
	for n := 0; n <= 40; n++ {
		for count := 1; count <= 12; count++ {
			next, smallest, largest := 0, n, 0
			for i := range count {
				lo, hi := blockBounds(n, i, count)
				if lo != next || hi < lo {
					t.Fatalf("n=%d count=%d: block %d is [%d, %d), want it to start at %d", n, count, i, lo, hi, next)
				}
				next = hi
				smallest, largest = min(smallest, hi-lo), max(largest, hi-lo)
			}
			if next != n {
				t.Fatalf("n=%d count=%d: blocks end at %d", n, count, next)
			}
			if largest-smallest > 1 {
				t.Fatalf("n=%d count=%d: block sizes from %d to %d", n, count, smallest, largest)
			}
		}
	}
	for _, tc := range []struct{ n, i, count, lo, hi int }{
		{50, 0, 3, 0, 16}, {50, 1, 3, 16, 33}, {50, 2, 3, 33, 50}, // uneven
		{5, 0, 1, 0, 5},                                                    // one shard
		{2, 0, 4, 0, 0}, {2, 1, 4, 0, 1}, {2, 2, 4, 1, 1}, {2, 3, 4, 1, 2}, // more shards than sources
	} {
		if lo, hi := blockBounds(tc.n, tc.i, tc.count); lo != tc.lo || hi != tc.hi {
			t.Errorf("blockBounds(%d, %d, %d) = [%d, %d), want [%d, %d)", tc.n, tc.i, tc.count, lo, hi, tc.lo, tc.hi)
		}
	}
}

func TestShardBlockKeepsItsPairs(t *testing.T) {
	sources := []int32{9, 4, 7, 1, 3}
	pairs := [][2]int32{{9, 0}, {1, 2}, {3, 3}, {7, 5}}
	got, mine := shardBlock(Shard{Index: 1, Count: 3}, sources, pairs, stagetest.QuietLog)
	if want := []int32{4, 7}; !slices.Equal(got, want) {
		t.Errorf("sources %v, want %v", got, want)
	}
	if len(mine) != 1 || mine[0] != [2]int32{7, 5} {
		t.Errorf("pairs %v, want [[7 5]]", mine)
	}
}

// env is a fake environment.
type env map[string]string

func (e env) lookup(name string) (string, bool) {
	v, ok := e[name]
	return v, ok
}

func TestResolveShard(t *testing.T) {
	slurm := env{"SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "4"}
	for _, tc := range []struct {
		name     string
		spec     string
		count    int
		finalize bool
		env      env
		want     string // "i/N from-substring", or "" for unsharded
		errKey   string // the key or variable the error names
	}{
		{name: "unsharded", env: env{}},
		{name: "key", spec: "1/3", env: env{}, want: "1/3 compute.shard"},
		{name: "key and shards agree", spec: "1/3", count: 3, env: env{}, want: "1/3 compute.shard"},
		{name: "slurm", env: slurm, want: "2/4 SLURM_ARRAY_TASK_ID=2"},
		{name: "slurm resubmitted index", count: 4, env: env{"SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "1"}, want: "2/4 compute.shards=4"},
		{name: "kubernetes", count: 8, env: env{"JOB_COMPLETION_INDEX": "7"}, want: "7/8 JOB_COMPLETION_INDEX=7"},
		{name: "aws batch", env: env{"AWS_BATCH_JOB_ARRAY_INDEX": "0", "AWS_BATCH_JOB_ARRAY_SIZE": "2"}, want: "0/2 AWS Batch"},
		{name: "key agreeing with slurm", spec: "2/4", env: slurm, want: "2/4 compute.shard"},
		{name: "two schedulers agreeing", env: env{"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "2", "AWS_BATCH_JOB_ARRAY_INDEX": "1", "AWS_BATCH_JOB_ARRAY_SIZE": "2"}, want: "1/2 Slurm"},
		{name: "slurm without its count variable", count: 4, env: env{"SLURM_ARRAY_TASK_ID": "2"}, want: "2/4 compute.shards=4"},
		{name: "aws batch without its size variable", count: 2, env: env{"AWS_BATCH_JOB_ARRAY_INDEX": "1"}, want: "1/2 compute.shards=2"},
		{name: "key agreeing with kubernetes", spec: "1/3", env: env{"JOB_COMPLETION_INDEX": "1"}, want: "1/3 compute.shard"},
		{name: "key agreeing with a resubmitted slurm index", spec: "2/4", env: env{"SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "1"}, want: "2/4 compute.shard"},
		{name: "finalize", count: 4, finalize: true, env: slurm, want: "-1/4 compute.shards"},
		{name: "finalize from the key's N", spec: "0/5", finalize: true, env: env{}, want: "-1/5 compute.shards"},

		{name: "key conflicts with slurm", spec: "1/4", env: slurm, errKey: KeyShard},
		{name: "key conflicts with shards", spec: "1/4", count: 3, env: env{}, errKey: KeyShard},
		{name: "key conflicts with kubernetes", spec: "1/3", env: env{"JOB_COMPLETION_INDEX": "2"}, errKey: KeyShard},
		{name: "malformed count beside shards", count: 4, env: env{"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "x"}, errKey: "SLURM_ARRAY_TASK_COUNT"},
		{name: "malformed key", spec: "4/4", env: env{}, errKey: KeyShard},
		{name: "malformed key text", spec: "one of two", env: env{}, errKey: KeyShard},
		{name: "malformed index", env: env{"SLURM_ARRAY_TASK_ID": "x", "SLURM_ARRAY_TASK_COUNT": "4"}, errKey: "SLURM_ARRAY_TASK_ID"},
		{name: "missing count", env: env{"SLURM_ARRAY_TASK_ID": "1"}, errKey: "SLURM_ARRAY_TASK_COUNT"},
		{name: "index beyond count", env: env{"SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_COUNT": "4"}, errKey: "SLURM_ARRAY_TASK_ID"},
		{name: "resubmitted index without shards", env: env{"SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "1"}, errKey: "SLURM_ARRAY_TASK_ID"},
		{name: "kubernetes without shards", env: env{"JOB_COMPLETION_INDEX": "0"}, errKey: KeyShards},
		{name: "schedulers conflict", env: env{"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "2", "JOB_COMPLETION_INDEX": "0"}, count: 2, errKey: "JOB_COMPLETION_INDEX"},
		{name: "shards without an index", count: 3, env: env{}, errKey: KeyShards},
		{name: "finalize without shards", finalize: true, env: slurm, errKey: KeyShards},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := resolveShard(tc.spec, tc.count, tc.finalize, tc.env.lookup)
			if tc.errKey != "" {
				var cerr *config.Error
				if !errors.As(err, &cerr) || cerr.Key != tc.errKey {
					t.Fatalf("error %v, want a config error naming %s", err, tc.errKey)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.want == "" {
				if s.Sharded() {
					t.Fatalf("shard %+v, want unsharded", s)
				}
				return
			}
			ratio, from, _ := strings.Cut(tc.want, " ")
			if got := fmt.Sprintf("%d/%d", s.Index, s.Count); got != ratio || !strings.Contains(s.From, from) {
				t.Errorf("shard %s from %q, want %s from %q", got, s.From, ratio, from)
			}
		})
	}
}

// shardConfig loads a compute config from flags with a fake environment.
func shardConfig(t *testing.T, e env, args ...string) (*Config, error) {
	t.Helper()
	l, err := config.Load("compute", Keys(), args, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := ConfigFrom(l)
	if err != nil {
		return nil, err
	}
	// ConfigFrom read this process's environment; redo it with e.
	sum, err := settingsChecksum(l)
	if err != nil {
		t.Fatal(err)
	}
	cfg.ConfigSHA256 = sum
	return cfg, cfg.applyShard(l.Values(), e.lookup)
}

func TestShardSettingsChecksum(t *testing.T) {
	base := []string{"-generate", "grid:side=4", "-sources", "all"}
	sum := func(e env, args ...string) string {
		cfg, err := shardConfig(t, e, append(base, args...)...)
		if err != nil {
			t.Fatal(err)
		}
		return cfg.ConfigSHA256
	}
	unsharded := sum(env{})
	first, second := sum(env{}, "-shard", "0/3"), sum(env{"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "3"})
	finalize := sum(env{}, "-finalize", "-shards", "3")
	if first != second || first != finalize {
		t.Errorf("the shards and finalize of one dataset have different settings checksums: %s, %s, %s", first, second, finalize)
	}
	if first == unsharded || first == sum(env{}, "-shard", "0/4") {
		t.Error("the number of shards does not change the settings checksum")
	}
}

func TestShardConfigRejectsWholeMatrixRuns(t *testing.T) {
	for _, tc := range []struct {
		args []string
		key  string
	}{
		{[]string{"-output-format", "distmatrix", "-parents=false", "-shard", "0/1"}, output.KeyOutputFormat},
		{[]string{"-algorithm", "floyd-warshall", "-shard", "1/2"}, KeyAlgorithm},
	} {
		_, err := shardConfig(t, env{}, append([]string{"-generate", "grid:side=4", "-sources", "all"}, tc.args...)...)
		var cerr *config.Error
		if !errors.As(err, &cerr) || cerr.Key != tc.key {
			t.Errorf("%v: error %v, want one naming %s", tc.args, err, tc.key)
		}
	}
	if _, err := shardConfig(t, env{}, "-generate", "grid:side=4", "-sources", "all", "-algorithm", "floyd-warshall", "-shard", "0/1"); err != nil {
		t.Errorf("a one-shard Floyd-Warshall run: %v", err)
	}
}
