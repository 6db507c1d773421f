package results

import (
	"fmt"

	"github.com/pathflow/pathflow/internal/paths"
)

// CheckRagged reports a block that is not rows First.. of sources with row
// i as wide as targets[First+i], parents exactly when parents is true.
func (r *Rows) CheckRagged(sources []int32, targets [][]int32, parents bool) error {
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
	return r.checkValues(sources, r.Offsets[rows], parents)
}

// CheckSparse reports a block that is not rows First.. of sources as
// sparse rows over n vertices (Offsets and Vertices, each row's vertices
// increasing and within 0..n-1, every distance at most maxDistance), with
// parents exactly when parents is true. O(cells).
func (r *Rows) CheckSparse(sources []int32, n int, maxDistance int64, parents bool) error {
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
	if err := r.checkValues(sources, r.Offsets[rows], parents); err != nil {
		return err
	}
	for at := range r.Vertices {
		if d := r.Cell(at); d == paths.Unreachable || d > maxDistance {
			return fmt.Errorf("results: sparse block at row %d holds a distance %d beyond the cutoff %d", r.First, d, maxDistance)
		}
	}
	return nil
}

// CheckShape reports a block that is not rows First.. of sources over
// width vertices, with parents exactly when parents is true: the check
// every consumer runs before reading a block.
func (r *Rows) CheckShape(sources []int32, width int, parents bool) error {
	n, rows := r.Width, r.Len()
	switch {
	case n != width || r.Offsets != nil || r.Vertices != nil:
		return fmt.Errorf("results: block of width %d for %d columns", n, width)
	case r.First < 0 || r.First+rows > len(sources):
		return fmt.Errorf("results: block of rows %d..%d for %d sources", r.First, r.First+rows-1, len(sources))
	}
	return r.checkValues(sources, rows*n, parents)
}

// checkValues reports slices of other than cells values and sources other
// than sources[First:].
func (r *Rows) checkValues(sources []int32, cells int, parents bool) error {
	switch {
	case r.Dist32 != nil && r.Dist64 != nil, cells > 0 && r.Dist32 == nil && r.Dist64 == nil:
		// A block of empty rows (sources with no targets) has no cells to
		// type, so it may leave both slices nil.
		return fmt.Errorf("results: block at row %d needs exactly one of int32 and int64 distances", r.First)
	case r.Dist32 != nil && len(r.Dist32) != cells, r.Dist64 != nil && len(r.Dist64) != cells:
		return fmt.Errorf("results: block at row %d has distances for other than %d cells", r.First, cells)
	case parents && len(r.Parent) != cells:
		return fmt.Errorf("results: block at row %d has %d parents for %d cells", r.First, len(r.Parent), cells)
	case !parents && r.Parent != nil:
		return fmt.Errorf("results: block at row %d has parents that were not requested", r.First)
	}
	for i, s := range r.Sources {
		if s != sources[r.First+i] {
			return fmt.Errorf("results: block row %d is source %d, want %d", r.First+i, s, sources[r.First+i])
		}
	}
	return nil
}
