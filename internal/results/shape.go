package results

// Shape is what a result holds, declared once: which rows (Sources), which
// cells of each row (every vertex, the shared Targets, or each row's own
// SourceTargets), the cutoff, whether rows may come sparse, and which
// columns. A backend request carries it (backend.Request) and a table of
// results adds its layout to it (resultfiles.ResultShape), so the targets of a
// run travel in one place and every block is checked against the same
// declaration (Check).
type Shape struct {
	// Sources are the dense ids of the rows, in output order; a source may
	// not repeat.
	Sources []int32
	// Targets, when not nil, are the only vertices every row reports, in
	// this order: a block's rows are len(Targets) wide and column j holds
	// vertex Targets[j]. A backend may stop a search once every target is
	// settled. nil: every vertex, in id order (rows are n wide).
	Targets []int32
	// SourceTargets, when not nil, gives each source its own targets (a
	// pair list grouped by source): row i reports vertices
	// SourceTargets[i], in that order, and blocks are ragged (see
	// Rows.Offsets). At most one of Targets and SourceTargets is set.
	SourceTargets [][]int32
	// MaxDistance, unless NoCutoff, lets the backend stop searching beyond
	// this distance: a vertex farther away may be reported unreachable or
	// with its true distance. Consumers filter either way.
	MaxDistance int64
	// CutoffCells says that the consumers also take sparse blocks
	// (Rows.Vertices): with a cutoff and every vertex a target, a backend
	// may hand each row as its cells within MaxDistance instead of n
	// values, so that only those leave the device and cross to the
	// writers. Ignored otherwise (see SparseRows).
	CutoffCells bool
	// Columns are the per-cell values asked for beside the distance; a
	// block holds exactly these.
	Columns Columns
	// SummaryOnly says that the consumers read only each row's summary
	// (RowSummary), no cell: a backend may then hand blocks of summaries
	// (Rows.Summaries) instead of cells, reduced where the rows are made
	// (SummarizeSink, or on the device), so that a row leaves its
	// producer as a few words. Columns then holds distances alone.
	SummaryOnly bool
}

// Wants reports whether the result has col.
func (s *Shape) Wants(col Column) bool { return s.Columns.Has(col) }

// Narrowed reports whether rows hold chosen targets rather than every
// vertex.
func (s *Shape) Narrowed() bool { return s.Targets != nil || s.SourceTargets != nil }

// HasCutoff reports whether cells beyond MaxDistance are dropped.
func (s *Shape) HasCutoff() bool { return s.MaxDistance != NoCutoff }

// SparseRows reports whether blocks may be sparse: CutoffCells with a
// cutoff, over every vertex.
func (s *Shape) SparseRows() bool { return s.CutoffCells && s.HasCutoff() && !s.Narrowed() }

// RowTargets returns the vertices of row i's columns; nil means every
// vertex in id order.
func (s *Shape) RowTargets(i int) []int32 {
	if s.SourceTargets != nil {
		return s.SourceTargets[i]
	}
	return s.Targets
}

// RowWidth is the number of values row i reports: len(SourceTargets[i]),
// len(Targets), or the vertex count n.
func (s *Shape) RowWidth(i int, n int) int {
	switch {
	case s.SourceTargets != nil:
		return len(s.SourceTargets[i])
	case s.Targets != nil:
		return len(s.Targets)
	}
	return n
}
