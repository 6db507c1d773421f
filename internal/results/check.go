package results

import "fmt"

// CheckRagged reports a block that is not rows First.. of sources with row
// i as wide as targets[First+i], parents exactly when parents is true.
func (r *Rows) CheckRagged(sources []int32, targets [][]int32, parents bool) error {
	rows := r.Len()
	if r.First < 0 || r.First+rows > len(sources) {
		return fmt.Errorf("results: block of rows %d..%d for %d sources", r.First, r.First+rows-1, len(sources))
	}
	if len(r.Offsets) != rows+1 || r.Width != 0 {
		return fmt.Errorf("results: ragged block at row %d needs %d offsets and width 0", r.First, rows+1)
	}
	for i := range rows {
		if r.Offsets[i+1]-r.Offsets[i] != len(targets[r.First+i]) {
			return fmt.Errorf("results: block row %d has %d values for %d targets", r.First+i, r.Offsets[i+1]-r.Offsets[i], len(targets[r.First+i]))
		}
	}
	return r.checkValues(sources, r.Offsets[rows], parents)
}

// CheckShape reports a block that is not rows First.. of sources over
// width vertices, with parents exactly when parents is true: the check
// every consumer runs before reading a block.
func (r *Rows) CheckShape(sources []int32, width int, parents bool) error {
	n, rows := r.Width, r.Len()
	switch {
	case n != width || r.Offsets != nil:
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
