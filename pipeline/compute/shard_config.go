package compute

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/pipeline/output"
)

// Sharding configuration keys.
const (
	KeyShard    = "compute.shard"
	KeyShards   = "compute.shards"
	KeyFinalize = "compute.finalize"
)

// shardKeys declares the sharding keys, appended to ComputeKeys.
func shardKeys() []config.Key {
	return []config.Key{
		{Name: KeyShard, Default: "", Flag: "shard", Usage: `this task's shard "i/N" (0-based i) of a sharded run; empty: from the scheduler's environment, if any`},
		{Name: KeyShards, Default: 0, Flag: "shards", Usage: "number of shards N; needed under Kubernetes, by -finalize and to resubmit one index; 0: from compute.shard or the scheduler"},
		{Name: KeyFinalize, Default: false, Flag: "finalize", Usage: "check that all N shards in output.dir are complete and consistent, then write the dataset's manifest and _SUCCESS"},
	}
}

// scheduler names the environment variables by which a batch scheduler
// tells an array task its index and the array's size.
type scheduler struct {
	name, indexVar, countVar string // countVar "": the scheduler does not say
}

// schedulers are read in this order when compute.shard is empty.
var schedulers = []scheduler{
	{"Slurm", "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT"},
	{"Kubernetes", "JOB_COMPLETION_INDEX", ""},
	{"AWS Batch", "AWS_BATCH_JOB_ARRAY_INDEX", "AWS_BATCH_JOB_ARRAY_SIZE"},
}

// lookupEnv reads one environment variable, as os.LookupEnv does.
type lookupEnv func(name string) (string, bool)

// resolveShard decides this task's shard from compute.shard (spec),
// compute.shards (count, 0 for unset) and the schedulers' environment
// variables:
//
//   - spec "i/N" wins; a scheduler's variables that say otherwise, or a
//     count other than N, are an error (a copied config would otherwise
//     compute the same shard in every task);
//   - else the one scheduler whose index variable is set gives the index,
//     and count, when set, the number of shards, else the scheduler's own
//     count variable (Kubernetes has none: count is then required);
//     two schedulers that disagree are an error;
//   - with neither, the run is unsharded, unless count is set, which is an
//     error for a task (finalize takes count alone).
//
// Errors name the key or the variable.
func resolveShard(spec string, count int, finalize bool, env lookupEnv) (Shard, error) {
	if finalize {
		return finalizeShards(spec, count)
	}
	if spec = strings.TrimSpace(spec); spec != "" {
		s, err := parseShardSpec(spec)
		if err != nil {
			return Shard{}, err
		}
		if count > 0 && count != s.Count {
			return Shard{}, config.Errorf(KeyShard, "%q says %d shards but %s is %d", spec, s.Count, KeyShards, count)
		}
		// The key's N is the number of shards the scheduler's index is
		// read against, as compute.shards would be.
		fromEnv, err := shardFromEnv(s.Count, env)
		if err != nil {
			return Shard{}, err
		}
		if fromEnv.Sharded() && (fromEnv.Index != s.Index || fromEnv.Count != s.Count) {
			return Shard{}, config.Errorf(KeyShard, "%q conflicts with the scheduler's %s (shard %d/%d): leave %s empty in array jobs",
				spec, fromEnv.From, fromEnv.Index, fromEnv.Count, KeyShard)
		}
		return s, nil
	}
	fromEnv, err := shardFromEnv(count, env)
	if err != nil {
		return Shard{}, err
	}
	if !fromEnv.Sharded() && count > 0 {
		return Shard{}, config.Errorf(KeyShards, "is %d but no shard index is given: set %s: \"i/%d\" or run as an array task", count, KeyShard, count)
	}
	return fromEnv, nil
}

// finalizeShards is the number of shards finalize checks: from
// compute.shards or from compute.shard's N.
func finalizeShards(spec string, count int) (Shard, error) {
	if strings.TrimSpace(spec) != "" {
		s, err := parseShardSpec(spec)
		if err != nil {
			return Shard{}, err
		}
		if count > 0 && count != s.Count {
			return Shard{}, config.Errorf(KeyShard, "%q says %d shards but %s is %d", spec, s.Count, KeyShards, count)
		}
		count = s.Count
	}
	if count == 0 {
		return Shard{}, config.Errorf(KeyShards, "finalize needs the number of shards: set %s (flag -shards)", KeyShards)
	}
	return Shard{Index: -1, Count: count, From: KeyShards}, nil
}

// parseShardSpec parses compute.shard's "i/N".
func parseShardSpec(spec string) (Shard, error) {
	iText, nText, ok := strings.Cut(spec, "/")
	i, err1 := strconv.Atoi(strings.TrimSpace(iText))
	n, err2 := strconv.Atoi(strings.TrimSpace(nText))
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return Shard{}, config.Errorf(KeyShard, "%q is not \"i/N\" with 0 <= i < N (0-based shard i of N)", spec)
	}
	return Shard{Index: i, Count: n, From: KeyShard}, nil
}

// shardFromEnv reads the schedulers' variables; the zero Shard when none
// is set.
func shardFromEnv(count int, env lookupEnv) (Shard, error) {
	var found Shard
	for _, sc := range schedulers {
		s, ok, err := sc.shard(count, env)
		switch {
		case err != nil:
			return Shard{}, err
		case !ok:
			continue
		case found.Sharded() && (found.Index != s.Index || found.Count != s.Count):
			return Shard{}, config.Errorf(sc.indexVar, "%s (shard %d/%d) conflicts with %s (shard %d/%d): unset one",
				s.From, s.Index, s.Count, found.From, found.Index, found.Count)
		case !found.Sharded():
			found = s
		}
	}
	return found, nil
}

// shard reads one scheduler's variables; ok is false when its index
// variable is unset.
func (sc scheduler) shard(count int, env lookupEnv) (s Shard, ok bool, err error) {
	indexText, ok := env(sc.indexVar)
	if !ok {
		return Shard{}, false, nil
	}
	index, err := strconv.Atoi(strings.TrimSpace(indexText))
	if err != nil || index < 0 {
		return Shard{}, false, config.Errorf(sc.indexVar, "%q is not a shard index (an integer >= 0)", indexText)
	}
	from := fmt.Sprintf("%s (%s=%d", sc.name, sc.indexVar, index)
	n := count
	// The scheduler's count variable is needed only when count does not
	// give the number of shards; when set, it must still be well formed.
	if countText, set := env(sc.countVar); sc.countVar != "" && (set || n == 0) {
		size, err := strconv.Atoi(strings.TrimSpace(countText))
		if !set || err != nil || size < 1 {
			return Shard{}, false, config.Errorf(sc.countVar, "%q is not an array size (an integer >= 1), with %s set", countText, sc.indexVar)
		}
		from += fmt.Sprintf(", %s=%d", sc.countVar, size)
		if n == 0 {
			n = size
		}
	}
	if n == 0 {
		return Shard{}, false, config.Errorf(KeyShards, "%s sets %s but not the number of shards: set %s to the job's completions", sc.name, sc.indexVar, KeyShards)
	}
	if count > 0 {
		from += fmt.Sprintf(", %s=%d", KeyShards, count)
	}
	if index >= n {
		return Shard{}, false, config.Errorf(sc.indexVar, "%d is outside 0..%d for %d shards (arrays run 0..N-1; a resubmitted index needs %s)", index, n-1, n, KeyShards)
	}
	return Shard{Index: index, Count: n, From: from + ")"}, true, nil
}

// shardedChecksum is the settings checksum of a sharded run: the
// partitioning changes the files, so the number of shards counts, but not
// the index, which differs between the tasks of one dataset.
func shardedChecksum(settings string, count int) string {
	sum := sha256.Sum256(fmt.Appendf(nil, "%s\nshards=%d", settings, count))
	return hex.EncodeToString(sum[:])
}

// applyShard reads the sharding keys into cfg, with env for the
// schedulers' variables, and checks the settings a sharded run cannot
// take. cfg.ConfigSHA256 must hold the settings checksum.
func (c *Config) applyShard(vs *config.Values, env lookupEnv) error {
	spec, count, finalize := vs.String(KeyShard), vs.Int(KeyShards, 0, 1<<20), vs.Bool(KeyFinalize)
	if err := vs.Err(); err != nil {
		return err
	}
	s, err := resolveShard(spec, count, finalize, env)
	if err != nil {
		return err
	}
	c.Shard, c.Finalize = s, finalize
	if !s.Sharded() {
		return nil
	}
	if c.Matrix {
		return config.Errorf(output.KeyOutputFormat, "distmatrix writes one whole matrix: a sharded run (%s) writes Parquet or Arrow partitions", KeyShard)
	}
	if d, ok := backend.Describe(c.Algorithm); ok && d.AllPairs && s.Split() {
		return config.Errorf(KeyAlgorithm, "%s computes every row: a run in %d shards needs auto, dijkstra, bellman-ford, sssp or johnson", c.Algorithm, s.Count)
	}
	c.ConfigSHA256 = shardedChecksum(c.ConfigSHA256, s.Count)
	return nil
}
