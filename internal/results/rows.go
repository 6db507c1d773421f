package results

// Rows is a block of consecutive result rows: row i holds the cells from
// Sources[i] to every vertex, or to the shape's targets (Shape.Targets:
// column j is vertex Targets[j]), Width cells per row, row-major; or, for
// a shape with SourceTargets, to row i's own targets, ragged (see
// Offsets); or, in a sparse block, only to the vertices within the
// shape's cutoff (see Vertices). Each cell has a value in every column the
// block holds (Columns, Has): its distance always, its parent when the
// shape asked for parents.
//
// Producers fill the column slices; consumers read distances through
// Distances, which hides the native width, and ask Has rather than test
// slices. A consumer reads a block until it calls Release; afterwards the
// buffers belong to the producer again.
type Rows struct {
	// First is the index in the request's sources of the block's first row.
	First int
	// Sources are the rows' sources: the request's Sources[First:First+len].
	Sources []int32
	// Width is the number of values per row: the graph's vertex count, or
	// the request's target count; 0 in a ragged block.
	Width int
	// Offsets, in a ragged block (a request with SourceTargets) or a
	// sparse one, holds Len()+1 positions: row i's values are at
	// Offsets[i]..Offsets[i+1]-1 of Dist32 (or Dist64) and Parent. nil
	// otherwise.
	Offsets []int
	// Vertices, in a sparse block (a shape with CutoffCells), is the
	// vertex of each value: a row holds exactly the vertices within the
	// cutoff, in increasing id order. nil otherwise.
	Vertices []int32
	// Dist32 and Dist64 are the distance column in its producer's width:
	// exactly one is set (both may be nil in a block without cells). In
	// Dist32, graph.Inf32 and above mean no path; in Dist64,
	// paths.Unreachable does. Read them through Distances.
	Dist32 []int32
	Dist64 []int64
	// Parent is the parent column, nil when the shape did not ask for it;
	// paths.NoParent marks the source and unreachable vertices.
	Parent []int32
	// Metric64 is the metric column (Metric), nil when the shape did not
	// ask for it.
	Metric64 []int64
	// Summaries, in a block of a shape with SummaryOnly, replace the
	// cells: one summary a row, and no cell slice set (see Summarized).
	Summaries []RowSummary

	release func(*Rows)
}

// Len is the number of rows.
func (r *Rows) Len() int { return len(r.Sources) }

// Span returns where row i's values lie in the block's slices: lo..hi-1.
func (r *Rows) Span(i int) (lo, hi int) {
	if r.Offsets != nil {
		return r.Offsets[i], r.Offsets[i+1]
	}
	return i * r.Width, (i + 1) * r.Width
}

// Sparse reports whether the block lists each row's cells with their
// vertices (Vertices) rather than by column.
func (r *Rows) Sparse() bool { return r.Vertices != nil }

// Release hands the block back to its producer. Call it exactly once.
func (r *Rows) Release() {
	if r.release != nil {
		r.release(r)
	}
}

// OnRelease sets what Release does: a producer whose block borrows memory
// it owns (a matrix, a pinned buffer) learns through it that the consumer
// is done.
func (r *Rows) OnRelease(fn func(*Rows)) { r.release = fn }

// Sink receives the blocks of a run. It may be called from several
// goroutines at once and with blocks in any order; it must not wait for
// another block to arrive (that one's producer may be waiting for this
// call), and it takes over the block: the consumer releases it, also when
// Sink returns an error.
type Sink func(*Rows) error
