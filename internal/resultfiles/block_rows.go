package resultfiles

import (
	"runtime"

	"github.com/pathflow/pathflow/internal/parallel"
	"github.com/pathflow/pathflow/internal/results"
)

// cellsPerChunk is the fewest cells a goroutine reads of a block that
// forBlockRows splits. A chosen bound, not a measured optimum: reading a
// million cells takes a core milliseconds (estimated from the 0.22-0.24 s
// of 5*10^7 cells below), hundreds of times what starting a goroutine
// costs.
const cellsPerChunk = 1 << 20

// forBlockRows runs body over rows 0..rows.Len()-1 of a block, split into
// consecutive ranges on every core when the block is large. A GPU hands
// its blocks to the consumers on one goroutine a device, so a consumer
// that reads every cell (a summary, the vertices a table names) would
// otherwise read a 10^8-cell table on one core a device: 0.22-0.24 s a
// consumer a device for `ch` 10,000 x 10,000 on two H200, in a stream of
// 0.6 s. body must be safe to run on ranges of one block at once.
func forBlockRows(rows *results.Rows, body func(lo, hi int)) {
	n := rows.Len()
	if n == 0 {
		return
	}
	first, _ := rows.Span(0)
	_, last := rows.Span(n - 1)
	cells := max(last-first, 1)
	perRow := max(cells/n, 1)
	parallel.Chunks(n, runtime.GOMAXPROCS(0), max(1, cellsPerChunk/perRow), func(_, lo, hi int) {
		if lo < hi {
			body(lo, hi)
		}
	})
}
