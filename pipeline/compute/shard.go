package compute

import (
	"fmt"
	"log/slog"
	"slices"

	"github.com/pathflow/pathflow/pipeline/output"
)

// Shard is the part of a run one task of a batch scheduler's array
// computes: block Index of Count contiguous blocks of the sources. The
// zero Shard (Count 0) is an unsharded run.
type Shard struct {
	Index, Count int
	// From says where the index came from, for the log: the key, or the
	// scheduler's environment variables.
	From string
}

// Sharded reports whether the run writes one shard of a dataset.
func (s Shard) Sharded() bool { return s.Count > 0 }

// Split reports whether the sources are divided among several shards.
func (s Shard) Split() bool { return s.Count > 1 }

// Name is the shard's partition folder name, "shard=0003".
func (s Shard) Name() string { return output.ShardName(s.Index) }

// blockBounds returns the half-open range [lo, hi) of the items of block i
// when n items are cut into count contiguous blocks: block i starts at
// floor(i*n/count), so blocks differ in size by at most one, and with more
// blocks than items some are empty. It depends on nothing else, so every
// task computes the same split.
func blockBounds(n, i, count int) (lo, hi int) {
	return int(int64(i) * int64(n) / int64(count)), int(int64(i+1) * int64(n) / int64(count))
}

// shardBlock keeps this shard's block of the sources, in configured order,
// and the path pairs whose source is in it, and logs which shard this is
// and where its index came from.
func shardBlock(s Shard, sources []int32, pairs [][2]int32, log *slog.Logger) ([]int32, [][2]int32) {
	if !s.Sharded() {
		return sources, pairs
	}
	lo, hi := blockBounds(len(sources), s.Index, s.Count)
	block := sources[lo:hi]
	var mine [][2]int32
	for _, p := range pairs {
		if slices.Contains(block, p[0]) {
			mine = append(mine, p)
		}
	}
	log.Info("shard", "shard", fmt.Sprintf("%d/%d", s.Index, s.Count), "from", s.From,
		"sources", fmt.Sprintf("%d of %d (positions %d..%d)", hi-lo, len(sources), lo, hi-1))
	return block, mine
}
