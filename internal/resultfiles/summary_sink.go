package resultfiles

import (
	"github.com/pathflow/pathflow/internal/results"
)

// SummarySink is the consumer of a run's blocks that makes the summary
// table: one SummaryRow per source over the cells a distances table of the
// same shape writes (its targets, within its cutoff). It takes blocks of
// cells, and of summaries where the shape has SummaryOnly (a backend
// reduced the rows where it made them). Its Put reads a block at once and
// releases it; it may be called from any goroutine. Sums are exact, so the
// rows do not depend on how the blocks were cut, where they were reduced
// or in which order they came.
type SummarySink struct {
	shape ResultShape
	stats *sourceStats
}

// NewSummarySink returns a summary consumer for results of shape (its
// layout does not matter).
func NewSummarySink(shape ResultShape) (*SummarySink, error) {
	if err := shape.check(); err != nil {
		return nil, err
	}
	return &SummarySink{shape: shape, stats: newSourceStats(len(shape.Sources))}, nil
}

// Put reads the block into the summary and releases it. O(cells), or
// O(rows) for a block of summaries.
func (s *SummarySink) Put(rows *results.Rows) error {
	defer rows.Release()
	if err := s.shape.checkBlock(rows); err != nil {
		return err
	}
	if rows.Summarized() {
		for r := range rows.Len() {
			s.stats.merge(rows.First+r, rows.Summaries[r])
		}
		return nil
	}
	forBlockRows(rows, func(lo, hi int) {
		for r := lo; r < hi; r++ {
			s.stats.merge(rows.First+r, s.shape.SummarizeRow(rows, r))
		}
	})
	return nil
}

// Close has nothing to finish: the rows are ready.
func (s *SummarySink) Close() error { return nil }

// Abort has nothing to release: Put holds no block.
func (s *SummarySink) Abort() {}

// Rows returns one summary row per source, in source order; valid once
// every block has been put.
func (s *SummarySink) Rows() []SummaryRow {
	return s.stats.rows(s.shape.Sources, s.shape.rowCount)
}
