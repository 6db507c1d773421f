package pipeline

import (
	"sort"
	"sync"

	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/internal/tables"
)

// pathCollector picks the rows of compute.paths out of the blocks as they
// pass to the distances table. Blocks arrive from several goroutines.
type pathCollector struct {
	pairs   [][2]int32
	parents bool
	// bySource lists, for each source of a pair, the indexes in pairs of
	// its pairs, so a row costs one lookup however many pairs there are.
	bySource map[int32][]int
	mu       sync.Mutex
	found    map[int]tables.PathRow // by index in pairs
}

func newPathCollector(pairs [][2]int32, parents bool) *pathCollector {
	bySource := make(map[int32][]int)
	for k, p := range pairs {
		bySource[p[0]] = append(bySource[p[0]], k)
	}
	return &pathCollector{pairs: pairs, parents: parents, bySource: bySource, found: map[int]tables.PathRow{}}
}

// collect records the pairs whose source is a row of the block. O(path
// length) per pair, read in place from the block.
func (c *pathCollector) collect(rows *results.Rows) {
	if len(c.pairs) == 0 || !c.parents {
		return
	}
	for i, s := range rows.Sources {
		found := c.bySource[s]
		if len(found) == 0 {
			continue
		}
		tree := rows.Tree(i)
		c.mu.Lock()
		for _, k := range found {
			c.found[k] = tables.NewPathRow(tree, c.pairs[k][1])
		}
		c.mu.Unlock()
	}
}

// rows returns the paths in the order of compute.paths.
func (c *pathCollector) rows() []tables.PathRow {
	keys := make([]int, 0, len(c.found))
	for k := range c.found {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	out := make([]tables.PathRow, 0, len(keys))
	for _, k := range keys {
		out = append(out, c.found[k])
	}
	return out
}
