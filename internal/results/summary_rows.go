package results

import "fmt"

// Summarized reports whether the block holds its rows' summaries
// (Summaries) rather than their cells.
func (r *Rows) Summarized() bool { return r.Summaries != nil }

// SummarizeRow returns the summary of row i of r, a block of cells of s
// (whole, narrowed, ragged or sparse): the cells within s's cutoff, the
// source's own counted as reached without a distance. O(cells of the row).
func (s *Shape) SummarizeRow(r *Rows, i int) RowSummary {
	acc := EmptySummary()
	lo, hi := r.Span(i)
	targets, source := s.RowTargets(r.First+i), r.Sources[i]
	if r.Sparse() {
		targets = r.Vertices[lo:hi]
	}
	for j, d := range r.Distances().Slice(lo, hi).Kept(s.MaxDistance) {
		v := int32(j)
		if targets != nil {
			v = targets[j]
		}
		if v == source {
			acc.AddSource()
		} else {
			acc.AddDistance(d)
		}
	}
	return acc
}

// SummarizeBlock returns a block of r's rows as their summaries: the same
// First and Sources, one RowSummary a row, no cells. r stays the caller's
// to release; a block already summarized comes back itself. O(cells).
func (s *Shape) SummarizeBlock(r *Rows) *Rows {
	if r.Summarized() {
		return r
	}
	out := &Rows{First: r.First, Sources: r.Sources, Summaries: make([]RowSummary, r.Len())}
	for i := range out.Summaries {
		out.Summaries[i] = s.SummarizeRow(r, i)
	}
	return out
}

// SummarizeSink adapts a producer of cells to a shape with SummaryOnly:
// each block of cells is reduced to its summaries where the producer hands
// it over (on its own goroutine, while the rows are fresh), released at
// once, and its summaries go to sink; summarized blocks pass as they are.
// A shape without SummaryOnly gets sink itself. Wrap it outside NarrowSink,
// so that the summaries read the narrowed cells.
func (s *Shape) SummarizeSink(sink Sink) Sink {
	if !s.SummaryOnly {
		return sink
	}
	return func(r *Rows) error {
		if r.Summarized() {
			return sink(r)
		}
		out := s.SummarizeBlock(r)
		r.Release()
		return sink(out)
	}
}

// CheckSummaries reports a block of summaries that is not rows First.. of
// sources, one summary a row, without cells.
func (r *Rows) CheckSummaries(sources []int32) error {
	rows := r.Len()
	switch {
	case r.First < 0 || r.First+rows > len(sources):
		return fmt.Errorf("results: block of rows %d..%d for %d sources", r.First, r.First+rows-1, len(sources))
	case len(r.Summaries) != rows:
		return fmt.Errorf("results: block at row %d has %d summaries for %d rows", r.First, len(r.Summaries), rows)
	case r.Width != 0 || r.Offsets != nil || r.Vertices != nil:
		return fmt.Errorf("results: summarized block at row %d also has a layout of cells", r.First)
	}
	return r.checkValues(sources, 0, 0)
}
