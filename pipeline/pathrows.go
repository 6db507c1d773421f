package pipeline

import (
	"sort"
	"sync"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/tables"
)

// pathCollector picks the rows of compute.paths out of the blocks as they
// pass to the distances table. Blocks arrive from several goroutines.
type pathCollector struct {
	pairs   [][2]int32
	parents bool
	mu      sync.Mutex
	found   map[int]tables.PathRow // by index in pairs
}

func newPathCollector(pairs [][2]int32, parents bool) *pathCollector {
	return &pathCollector{pairs: pairs, parents: parents, found: map[int]tables.PathRow{}}
}

// collect records the pairs whose source is a row of the block. O(path
// length) per pair, plus a copy of the row.
func (c *pathCollector) collect(rows *backend.Rows) {
	if len(c.pairs) == 0 || !c.parents {
		return
	}
	for i, s := range rows.Sources {
		var found []int
		for k, p := range c.pairs {
			if p[0] == s {
				found = append(found, k)
			}
		}
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
