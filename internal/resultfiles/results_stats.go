package resultfiles

import (
	"sync"

	"github.com/pathflow/pathflow/internal/results"
)

// sourceStats accumulates, per source, what the summary table says about
// it, from the pieces of its row that consumers see: cells, or summaries
// a backend reduced them to (results.RowSummary). Sums are exact
// (128-bit), so the result does not depend on how rows were cut into
// pieces, where they were reduced or in which order the pieces were
// merged.
type sourceStats struct {
	mu  sync.Mutex
	acc []results.RowSummary
}

func newSourceStats(sources int) *sourceStats {
	s := &sourceStats{acc: make([]results.RowSummary, sources)}
	for i := range s.acc {
		s.acc[i] = results.EmptySummary()
	}
	return s
}

// merge adds a piece of source i's row.
func (s *sourceStats) merge(i int, piece results.RowSummary) {
	s.mu.Lock()
	s.acc[i].Merge(piece)
	s.mu.Unlock()
}

// rows returns the summary rows; cells(i) is the number of cells of
// source index i. Closeness is Summarize's Wasserman-Faust form over those
// cells.
func (s *sourceStats) rows(sources []int32, cells func(i int) int) []SummaryRow {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]SummaryRow, len(sources))
	for i, a := range s.acc {
		out[i] = SummaryRow{Source: sources[i], Reachable: a.Reached, Eccentricity: a.Eccentricity, Closeness: a.Closeness(cells(i))}
	}
	return out
}
