package resultfiles

import (
	"github.com/pathflow/pathflow/internal/results"
)

// SummarySink is the consumer of a run's blocks that makes the summary
// table: one SummaryRow per source over the cells a distances table of the
// same shape writes (its targets, within its cutoff). Its Put reads a block
// at once and releases it; it may be called from any goroutine. Sums are
// exact, so the rows do not depend on how the blocks were cut or in which
// order they came.
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

// Put reads the block into the summary and releases it. O(cells).
func (s *SummarySink) Put(rows *results.Rows) error {
	defer rows.Release()
	if err := s.shape.checkBlock(rows); err != nil {
		return err
	}
	for r := range rows.Len() {
		i := rows.First + r
		lo, hi := rows.Span(r)
		targets, source := s.shape.RowTargets(i), rows.Sources[r]
		if rows.Sparse() {
			targets = rows.Vertices[lo:hi]
		}
		s.stats.merge(i, rowSummary(rows.Distances().Slice(lo, hi), targets, source, s.shape.MaxDistance))
	}
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

// rowSummary summarises one row's cells dist (column j is vertex
// targets[j], or j when targets is nil): the cells kept are those
// reached and, unless maxDistance is results.NoCutoff, within it; the
// source's own cell counts as reached but adds no distance.
func rowSummary(dist results.Distances, targets []int32, source int32, maxDistance int64) sourceAcc {
	acc := emptyAcc()
	for j, d := range dist.Kept(maxDistance) {
		acc.reached++
		v := int32(j)
		if targets != nil {
			v = targets[j]
		}
		if v != source {
			acc.addDistance(d)
		}
	}
	return acc
}
