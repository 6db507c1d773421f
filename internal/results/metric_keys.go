package results

import (
	"fmt"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
)

// SplitKeys turns a block computed on metric keys, whose Dist64 holds key
// sums (graph.Key: weight << 32 | metric) and paths.Unreachable, into its
// distance column and its Metric column (Metric64, reusing its buffer),
// proving every reachable cell exact with bound (graph.KeyBound.Check).
// The metric of an unreachable cell is 0. O(cells).
func SplitKeys(rows *Rows, bound graph.KeyBound) error {
	keys := rows.Dist64
	if cap(rows.Metric64) < len(keys) {
		rows.Metric64 = make([]int64, len(keys))
	}
	rows.Metric64 = rows.Metric64[:len(keys)]
	for i, k := range keys {
		if k == paths.Unreachable {
			rows.Metric64[i] = 0
			continue
		}
		if err := bound.Check(k); err != nil {
			return fmt.Errorf("results: row of source %d: %w", rows.Sources[rowOf(rows, i)], err)
		}
		keys[i], rows.Metric64[i] = graph.SplitKey(k)
	}
	return nil
}

// rowOf returns the row that holds cell i. O(rows).
func rowOf(rows *Rows, i int) int {
	for r := range rows.Len() {
		if _, hi := rows.Span(r); i < hi {
			return r
		}
	}
	return rows.Len() - 1
}
