// Package spread holds the host-side bookkeeping of requests whose rows
// are split among several devices or spans: checking the sources,
// splitting them evenly, renumbering the rows each part hands on and
// keeping the first error of the parts' goroutines. It is host code only,
// so every build has it.
package spread

import (
	"fmt"

	"github.com/pathflow/pathflow/internal/results"
)

// CheckSources rejects a source outside the graph.
func CheckSources(n int32, sources []int32) error {
	for _, s := range sources {
		if s < 0 || s >= n {
			return fmt.Errorf("gpu: source %d outside 0..%d", s, n-1)
		}
	}
	return nil
}

// SplitEvenly splits count items (tile rows, sources) into parts
// contiguous blocks whose sizes differ by at most one, larger ones first:
// the bounds, parts + 1 of them. Parts beyond the count are empty.
func SplitEvenly(count int64, parts int) []int64 {
	bounds := make([]int64, parts+1)
	for d := range parts {
		size := count / int64(parts)
		if int64(d) < count%int64(parts) {
			size++
		}
		bounds[d+1] = bounds[d] + size
	}
	return bounds
}

// ShiftRows passes sink the blocks of a span's rows with First counted
// from the start of the whole request, not of the span.
func ShiftRows(sink results.Sink, by int) results.Sink {
	if by == 0 {
		return sink
	}
	return func(rows *results.Rows) error {
		rows.First += by
		return sink(rows)
	}
}
