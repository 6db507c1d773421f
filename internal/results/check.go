package results

import "fmt"

// Check reports a block that is not what s declares: other sources, rows
// of other widths, other columns than s.Columns; a sparse block is checked
// as one where s allows them (SparseRows), a block of summaries as one
// where s has SummaryOnly. n is the vertex count, the
// width of full rows; 0 when unknown, which takes the block's own width.
// The check every consumer runs before reading a block, and every backend
// test after producing one.
func (s *Shape) Check(r *Rows, n int) error {
	switch {
	case r.Summarized() && s.SummaryOnly:
		return r.CheckSummaries(s.Sources)
	case r.Summarized():
		return fmt.Errorf("results: block at row %d holds summaries for a result of cells", r.First)
	case s.SourceTargets != nil:
		return r.CheckRagged(s.Sources, s.SourceTargets, s.Columns)
	case r.Sparse() && s.SparseRows():
		return r.CheckSparse(s.Sources, n, s.MaxDistance, s.Columns)
	case s.Targets != nil:
		return r.CheckShape(s.Sources, len(s.Targets), s.Columns)
	case n > 0:
		return r.CheckShape(s.Sources, n, s.Columns)
	}
	return r.CheckShape(s.Sources, r.Width, s.Columns)
}

// CheckRagged reports a block that is not rows First.. of sources with row
// i as wide as targets[First+i], holding exactly the columns cols.
func (r *Rows) CheckRagged(sources []int32, targets [][]int32, cols Columns) error {
	rows := r.Len()
	if r.First < 0 || r.First+rows > len(sources) {
		return fmt.Errorf("results: block of rows %d..%d for %d sources", r.First, r.First+rows-1, len(sources))
	}
	if len(r.Offsets) != rows+1 || r.Width != 0 || r.Vertices != nil {
		return fmt.Errorf("results: ragged block at row %d needs %d offsets and width 0", r.First, rows+1)
	}
	for i := range rows {
		if r.Offsets[i+1]-r.Offsets[i] != len(targets[r.First+i]) {
			return fmt.Errorf("results: block row %d has %d values for %d targets", r.First+i, r.Offsets[i+1]-r.Offsets[i], len(targets[r.First+i]))
		}
	}
	return r.checkValues(sources, r.Offsets[rows], cols)
}

// CheckSparse reports a block that is not rows First.. of sources as
// sparse rows over n vertices (Offsets and Vertices, each row's vertices
// increasing and within 0..n-1, every distance at most maxDistance),
// holding exactly the columns cols. O(cells).
func (r *Rows) CheckSparse(sources []int32, n int, maxDistance int64, cols Columns) error {
	rows := r.Len()
	switch {
	case r.First < 0 || r.First+rows > len(sources):
		return fmt.Errorf("results: block of rows %d..%d for %d sources", r.First, r.First+rows-1, len(sources))
	case len(r.Offsets) != rows+1 || r.Width != 0 || r.Offsets[0] != 0:
		return fmt.Errorf("results: sparse block at row %d needs %d offsets from 0 and width 0", r.First, rows+1)
	case len(r.Vertices) != r.Offsets[rows]:
		return fmt.Errorf("results: sparse block at row %d has %d vertices for %d cells", r.First, len(r.Vertices), r.Offsets[rows])
	}
	for i := range rows {
		if lo, hi := r.Span(i); lo > hi {
			return fmt.Errorf("results: sparse block row %d ends before it starts", r.First+i)
		}
	}
	for i := range rows {
		lo, hi := r.Span(i)
		for at := lo; at < hi; at++ {
			v := r.Vertices[at]
			if v < 0 || int(v) >= n || (at > lo && v <= r.Vertices[at-1]) {
				return fmt.Errorf("results: sparse block row %d lists vertex %d out of order or outside 0..%d", r.First+i, v, n-1)
			}
		}
	}
	if err := r.checkValues(sources, r.Offsets[rows], cols); err != nil {
		return err
	}
	dist := r.Distances()
	for at := range r.Vertices {
		if _, ok := dist.Within(at, maxDistance); !ok {
			return fmt.Errorf("results: sparse block at row %d holds a distance %d beyond the cutoff %d", r.First, dist.Weight(at), maxDistance)
		}
	}
	return nil
}

// CheckShape reports a block that is not rows First.. of sources over
// width vertices, holding exactly the columns cols.
func (r *Rows) CheckShape(sources []int32, width int, cols Columns) error {
	n, rows := r.Width, r.Len()
	switch {
	case n != width || r.Offsets != nil || r.Vertices != nil:
		return fmt.Errorf("results: block of width %d for %d columns", n, width)
	case r.First < 0 || r.First+rows > len(sources):
		return fmt.Errorf("results: block of rows %d..%d for %d sources", r.First, r.First+rows-1, len(sources))
	}
	return r.checkValues(sources, rows*n, cols)
}

// checkValues reports columns of other than cells values, other columns
// than cols, and sources other than sources[First:].
func (r *Rows) checkValues(sources []int32, cells int, cols Columns) error {
	for col := range columnCount {
		st := r.store(col)
		switch n := st.cells(); {
		case n < 0:
			return fmt.Errorf("results: block at row %d needs exactly one of int32 and int64 %ss", r.First, col)
		case col == Distance && cells > 0 && !st.held():
			// A block of empty rows (sources with no targets) has no cells to
			// type, so it may leave its distances unset.
			return fmt.Errorf("results: block at row %d needs exactly one of int32 and int64 %ss", r.First, col)
		case st.held() && !cols.Has(col):
			return fmt.Errorf("results: block at row %d has %ss that were not requested", r.First, col)
		case col == Distance && st.held() && n != cells:
			return fmt.Errorf("results: block at row %d has distances for other than %d cells", r.First, cells)
		case col != Distance && cols.Has(col) && n != cells:
			return fmt.Errorf("results: block at row %d has %d %ss for %d cells", r.First, n, col, cells)
		}
	}
	for i, s := range r.Sources {
		if s != sources[r.First+i] {
			return fmt.Errorf("results: block row %d is source %d, want %d", r.First+i, s, sources[r.First+i])
		}
	}
	return nil
}
