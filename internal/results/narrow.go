package results

// NarrowBlock copies the cells of s's targets out of full, a block of full
// rows (n wide) of s's sources, into a new block shaped as s declares:
// rows len(Targets) wide, or ragged for SourceTargets, with every column
// full holds. full stays the caller's to release. A shape without targets
// gets full itself back. O(cells of the new block).
func (s *Shape) NarrowBlock(full *Rows) *Rows {
	if !s.Narrowed() {
		return full
	}
	rows := full.Len()
	out := &Rows{First: full.First, Sources: full.Sources}
	cells := 0
	if s.SourceTargets != nil {
		out.Offsets = make([]int, rows+1)
		for i := range rows {
			cells += len(s.SourceTargets[full.First+i])
			out.Offsets[i+1] = cells
		}
	} else {
		out.Width = len(s.Targets)
		cells = rows * out.Width
	}
	for col := range columnCount {
		from, to := full.store(col), out.store(col)
		switch {
		case from.narrow != nil && *from.narrow != nil:
			*to.narrow = make([]int32, cells)
			gatherRows(s, out, full, *to.narrow, *from.narrow)
		case from.wide != nil && *from.wide != nil:
			*to.wide = make([]int64, cells)
			gatherRows(s, out, full, *to.wide, *from.wide)
		}
	}
	return out
}

// gatherRows copies, for each row of out, the cells of full's row at the
// row's targets from src into dst.
func gatherRows[T int32 | int64](s *Shape, out, full *Rows, dst, src []T) {
	for i := range out.Len() {
		at, _ := out.Span(i)
		base := i * full.Width
		for j, v := range s.RowTargets(full.First + i) {
			dst[at+j] = src[base+int(v)]
		}
	}
}

// NarrowSink adapts a producer of full rows (n values each, vertex v in
// column v) to a shape with Targets or SourceTargets: each full block is
// narrowed by NarrowBlock into a block that sink takes over, and released
// once copied. A shape with neither gets sink itself. The one adapter for
// every backend or variant that cannot leave the unasked columns on the
// device, and for consumers fed full rows of a narrowed result.
func (s *Shape) NarrowSink(sink Sink) Sink {
	if !s.Narrowed() {
		return sink
	}
	return func(full *Rows) error {
		out := s.NarrowBlock(full)
		full.Release()
		return sink(out)
	}
}

// Narrower is a Consumer that hands the next consumer the blocks of a
// narrowed shape when the producer computed full rows: a full block
// (vertex-count wide, no offsets, which a narrowed block never is, since
// targets as many as the vertices are never sent) is copied to the
// shape's targets and released; any other block passes as it is. It
// serves a stage that asked a backend for full rows because another
// consumer reads them whole.
type Narrower struct {
	want Shape // the targets the next consumer expects; none: not narrowed
	n    int
	next Consumer
}

// NewNarrower returns the Narrower of blocks over n vertices to want's
// targets for next.
func NewNarrower(want Shape, n int, next Consumer) *Narrower {
	return &Narrower{want: Shape{Sources: want.Sources, Targets: want.Targets, SourceTargets: want.SourceTargets}, n: n, next: next}
}

// narrow returns rows as the next consumer expects them.
func (nw *Narrower) narrow(rows *Rows) *Rows {
	if !nw.want.Narrowed() || rows.Offsets != nil || rows.Width != nw.n {
		return rows
	}
	defer rows.Release()
	return nw.want.NarrowBlock(rows)
}

// Put hands the block, narrowed, to the next consumer.
func (nw *Narrower) Put(rows *Rows) error { return nw.next.Put(nw.narrow(rows)) }

// Close closes the next consumer.
func (nw *Narrower) Close() error { return nw.next.Close() }

// Abort aborts the next consumer.
func (nw *Narrower) Abort() { nw.next.Abort() }
