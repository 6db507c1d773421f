package resultfiles

import (
	"sort"
	"sync"

	"github.com/pathflow/pathflow/internal/results"
)

// PathSink is the consumer of a run's blocks that picks out the rows of
// the paths table: the cost and the path of each requested (source,
// target) pair. Blocks must hold full rows (one column per vertex); Put
// may be called from several goroutines at once.
type PathSink struct {
	pairs   [][2]int32
	parents bool
	// bySource lists, for each source of a pair, the indexes in pairs of
	// its pairs, so a row costs one lookup however many pairs there are.
	bySource map[int32][]int
	mu       sync.Mutex
	found    map[int]PathRow // by index in pairs
}

// NewPathSink returns the consumer for pairs; without parents it collects
// nothing (the paths table then has no rows).
func NewPathSink(pairs [][2]int32, parents bool) *PathSink {
	bySource := make(map[int32][]int)
	for k, p := range pairs {
		bySource[p[0]] = append(bySource[p[0]], k)
	}
	return &PathSink{pairs: pairs, parents: parents, bySource: bySource, found: map[int]PathRow{}}
}

// Put records the pairs whose source is a row of the block and releases
// it. O(path length) per pair, read in place from the block.
func (c *PathSink) Put(rows *results.Rows) error {
	defer rows.Release()
	if len(c.pairs) == 0 || !c.parents {
		return nil
	}
	for i, s := range rows.Sources {
		found := c.bySource[s]
		if len(found) == 0 {
			continue
		}
		tree := rows.Tree(i)
		c.mu.Lock()
		for _, k := range found {
			c.found[k] = NewPathRow(tree, c.pairs[k][1])
		}
		c.mu.Unlock()
	}
	return nil
}

// Close has nothing to finish: the rows are ready.
func (c *PathSink) Close() error { return nil }

// Abort has nothing to release: Put holds no block.
func (c *PathSink) Abort() {}

// Rows returns the paths found, in the order of the pairs.
func (c *PathSink) Rows() []PathRow {
	keys := make([]int, 0, len(c.found))
	for k := range c.found {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	out := make([]PathRow, 0, len(keys))
	for _, k := range keys {
		out = append(out, c.found[k])
	}
	return out
}
