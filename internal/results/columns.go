package results

import "strings"

// Column names a per-cell value of a result: every cell of a block has its
// distance, and a request may ask for more columns beside it.
//
// The columns are declared here and nowhere else: a new per-cell column
// is a constant below, its name in columnNames, its slice in Rows and its
// case in Rows.store; checks, narrowing, fan-out and copies then carry it,
// and only the code that computes it and the writers that show it change.
type Column uint8

const (
	// Distance is the length of a shortest path from the row's source to
	// the cell's vertex (read through Rows.Distances). Every block holds it.
	Distance Column = iota
	// Parent is the vertex before the cell's vertex on that path, or
	// paths.NoParent for the source and unreachable vertices.
	Parent
	// Metric is a second value summed along the same path: the input's
	// second arc value (a road's length when the weight is its travel
	// time), over the path that is shortest by (distance, metric)
	// lexicographically (graph.MetricKeys). Undefined where the distance
	// is unreachable.
	Metric

	columnCount // the number of declared columns
)

// columnNames are the columns' names, for messages.
var columnNames = [columnCount]string{Distance: "distance", Parent: "parent", Metric: "metric"}

// String returns the column's name.
func (c Column) String() string {
	if c < columnCount {
		return columnNames[c]
	}
	return "column?"
}

// Columns is a set of columns: those a request asks for or a block holds.
// The distance column is always in it, so the zero Columns means distances
// only.
type Columns uint8

// bit is col's bit in a Columns; the distance column has none, since
// every set holds it, so that "distances only" is the one value 0.
func (c Column) bit() Columns {
	if c == Distance {
		return 0
	}
	return 1 << c
}

// ColumnsOf returns the set of cols (and distances).
func ColumnsOf(cols ...Column) Columns {
	var s Columns
	for _, c := range cols {
		s |= c.bit()
	}
	return s
}

// With returns c with col added when on, c itself otherwise: for a column
// a setting switches on.
func (c Columns) With(col Column, on bool) Columns {
	if on {
		c |= col.bit()
	}
	return c
}

// Has reports whether col is in c.
func (c Columns) Has(col Column) bool { return col == Distance || c&col.bit() != 0 }

// String lists the columns, comma-separated.
func (c Columns) String() string {
	var names []string
	for col := range columnCount {
		if c.Has(col) {
			names = append(names, col.String())
		}
	}
	return strings.Join(names, ",")
}

// store is where a block keeps one column's cells: a slice of int32 or of
// int64, whichever its producer writes (narrow or wide is nil when the
// column has no such width).
type store struct {
	narrow *[]int32
	wide   *[]int64
}

// store returns where r keeps col: the one place that ties a declared
// column to its slice.
func (r *Rows) store(col Column) store {
	switch col {
	case Distance:
		return store{narrow: &r.Dist32, wide: &r.Dist64}
	case Parent:
		return store{narrow: &r.Parent}
	case Metric:
		return store{wide: &r.Metric64}
	}
	panic("results: undeclared column " + col.String())
}

// held reports whether the store holds values (a non-nil slice).
func (s store) held() bool {
	return (s.narrow != nil && *s.narrow != nil) || (s.wide != nil && *s.wide != nil)
}

// cells is the number of values the store holds, -1 when both widths are
// set.
func (s store) cells() int {
	n32, n64 := s.narrow != nil && *s.narrow != nil, s.wide != nil && *s.wide != nil
	switch {
	case n32 && n64:
		return -1
	case n32:
		return len(*s.narrow)
	case n64:
		return len(*s.wide)
	}
	return 0
}

// Columns returns the columns the block holds: distances, and each other
// column whose values it carries. O(columns).
func (r *Rows) Columns() Columns {
	var c Columns
	for col := range columnCount {
		if r.store(col).held() {
			c |= col.bit()
		}
	}
	return c
}

// Has reports whether the block holds col.
func (r *Rows) Has(col Column) bool { return col == Distance || r.store(col).held() }

// SizeMetric makes the metric column cells long, reusing its buffer, and
// returns it: a column of no cells (a block whose rows' target lists are
// all empty) is an empty one, not nil, which Has would take for no
// column. The values are left for the caller to write. O(1) but where
// the buffer grows.
func (r *Rows) SizeMetric(cells int) []int64 {
	if r.Metric64 == nil || cap(r.Metric64) < cells {
		r.Metric64 = make([]int64, cells)
	}
	r.Metric64 = r.Metric64[:cells]
	return r.Metric64
}
