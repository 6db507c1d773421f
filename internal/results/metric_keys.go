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
// The proof grows with the weight and fails for a negative key, so the
// block's largest and smallest keys prove every cell at once. The metric
// of an unreachable cell is 0. O(cells).
func SplitKeys(rows *Rows, bound graph.KeyBound) error {
	keys := rows.Dist64
	metric := rows.SizeMetric(len(keys))
	lo, hi, at := int64(0), int64(0), -1
	for i, k := range keys {
		if k == paths.Unreachable {
			metric[i] = 0
			continue
		}
		if k > hi || at < 0 {
			hi, at = k, i
		}
		lo = min(lo, k)
		keys[i], metric[i] = graph.SplitKey(k)
	}
	if at < 0 {
		return nil
	}
	if err := bound.Check(lo); err != nil {
		return fmt.Errorf("results: a block from source %d: %w", rows.Sources[0], err)
	}
	if err := bound.Check(hi); err != nil {
		return fmt.Errorf("results: row of source %d: %w", rows.Sources[rowOf(rows, at)], err)
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
