package backend

import (
	"context"
	"fmt"
	"sync"

	"github.com/pathflow/pathflow/internal/paths"
)

// Rows is a block of consecutive result rows: row i holds the distances
// (and parents) from Sources[i] to every vertex, or to the request's
// targets (Request.Targets: column j is vertex Targets[j]), Width values
// per row, row-major; or, for a request with SourceTargets, to row i's own
// targets, ragged (see Offsets). Distances are in the backend's native width: exactly one of
// Dist32 (graph.Inf32 for "no path") and Dist64 (paths.Unreachable) is
// set. Parent is nil when the request asked for none; paths.NoParent marks
// the source and unreachable vertices.
//
// A consumer reads a block until it calls Release; afterwards the buffers
// belong to the producer again.
type Rows struct {
	// First is the index in Request.Sources of the block's first row.
	First int
	// Sources are the rows' sources: Request.Sources[First:First+len].
	Sources []int32
	// Width is the number of values per row: the graph's vertex count, or
	// the request's target count; 0 in a ragged block.
	Width int
	// Offsets, in a ragged block (a request with SourceTargets), holds
	// Len()+1 positions: row i's values are at Offsets[i]..Offsets[i+1]-1
	// of Dist32 (or Dist64) and Parent. nil otherwise.
	Offsets []int
	Dist32  []int32
	Dist64  []int64
	Parent  []int32

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

// Distance returns row i's value in column j (vertex j of a full row, the
// j-th target of a narrowed one), or paths.Unreachable.
func (r *Rows) Distance(i, j int) int64 {
	lo, _ := r.Span(i)
	at := lo + j
	if r.Dist32 != nil {
		return paths.Widen(r.Dist32[at])
	}
	return r.Dist64[at]
}

// Tree copies row i into a tree that shares no memory with the block. For
// checks and tests; the bulk output path reads the block directly.
func (r *Rows) Tree(i int) *paths.Tree {
	t := &paths.Tree{Source: r.Sources[i], Dist: make([]int64, r.Width)}
	for v := range r.Width {
		t.Dist[v] = r.Distance(i, v)
	}
	if r.Parent != nil {
		t.Parent = append([]int32(nil), r.Parent[i*r.Width:(i+1)*r.Width]...)
	}
	return t
}

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

// Check reports a block whose shape does not match its request: wrong
// sources, sizes, or both or neither distance slice. The width is the
// request's target count, or the vertex count of its edge list (of its CSR
// when it has none).
func (r *Rows) Check(req *Request) error {
	if req.SourceTargets != nil {
		return r.CheckRagged(req.Sources, req.SourceTargets, req.Parents)
	}
	width := r.Width
	switch {
	case req.Targets != nil:
		width = len(req.Targets)
	case req.Edges != nil:
		width = int(req.Edges.N)
	case req.CSR != nil:
		width = int(req.CSR.N)
	}
	return r.CheckShape(req.Sources, width, req.Parents)
}

// CheckRagged reports a block that is not rows First.. of sources with row
// i as wide as targets[First+i], parents exactly when parents is true.
func (r *Rows) CheckRagged(sources []int32, targets [][]int32, parents bool) error {
	rows := r.Len()
	if r.First < 0 || r.First+rows > len(sources) {
		return fmt.Errorf("backend: block of rows %d..%d for %d sources", r.First, r.First+rows-1, len(sources))
	}
	if len(r.Offsets) != rows+1 || r.Width != 0 {
		return fmt.Errorf("backend: ragged block at row %d needs %d offsets and width 0", r.First, rows+1)
	}
	for i := range rows {
		if r.Offsets[i+1]-r.Offsets[i] != len(targets[r.First+i]) {
			return fmt.Errorf("backend: block row %d has %d values for %d targets", r.First+i, r.Offsets[i+1]-r.Offsets[i], len(targets[r.First+i]))
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
		return fmt.Errorf("backend: block of width %d for %d columns", n, width)
	case r.First < 0 || r.First+rows > len(sources):
		return fmt.Errorf("backend: block of rows %d..%d for %d sources", r.First, r.First+rows-1, len(sources))
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
		return fmt.Errorf("backend: block at row %d needs exactly one of int32 and int64 distances", r.First)
	case r.Dist32 != nil && len(r.Dist32) != cells, r.Dist64 != nil && len(r.Dist64) != cells:
		return fmt.Errorf("backend: block at row %d has distances for other than %d cells", r.First, cells)
	case parents && len(r.Parent) != cells:
		return fmt.Errorf("backend: block at row %d has %d parents for %d cells", r.First, len(r.Parent), cells)
	case !parents && r.Parent != nil:
		return fmt.Errorf("backend: block at row %d has parents that were not requested", r.First)
	}
	for i, s := range r.Sources {
		if s != sources[r.First+i] {
			return fmt.Errorf("backend: block row %d is source %d, want %d", r.First+i, s, sources[r.First+i])
		}
	}
	return nil
}

// Sink receives the blocks of a run. It may be called from several
// goroutines at once and with blocks in any order; it must not wait for
// another block to arrive (that one's producer may be waiting for this
// call), and it takes over the block: the consumer releases it, also when
// Sink returns an error.
type Sink func(*Rows) error

// Pool hands out a fixed set of reusable blocks, so a producer can run at
// most that many blocks ahead of its consumer. Next also numbers the
// blocks: a producer must take a block before computing it and compute
// block k for the k-th Next, so blocks are held in output order and a
// consumer that waits for the lowest outstanding block never waits for a
// block whose producer is waiting for a buffer.
type Pool struct {
	free chan *Rows
	mu   sync.Mutex
	next int
}

// NewPool makes a pool of the given blocks; their release returns them to
// the pool.
func NewPool(blocks []*Rows) *Pool {
	p := &Pool{free: make(chan *Rows, len(blocks))}
	for _, b := range blocks {
		b.release = p.put
		p.free <- b
	}
	return p
}

// Next waits for a free block and returns it with its sequence number (0,
// 1, 2, ...), or ctx's error.
func (p *Pool) Next(ctx context.Context) (*Rows, int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case b := <-p.free:
		seq := p.next
		p.next++
		return b, seq, nil
	case <-ctx.Done():
		return nil, 0, ctx.Err()
	}
}

// Drain waits until every block is back (the consumer released them all) or
// ctx ends, and returns the blocks so the producer can free their memory.
func (p *Pool) Drain(ctx context.Context, count int) ([]*Rows, error) {
	var blocks []*Rows
	for range count {
		select {
		case b := <-p.free:
			blocks = append(blocks, b)
		case <-ctx.Done():
			return blocks, ctx.Err()
		}
	}
	return blocks, nil
}

func (p *Pool) put(b *Rows) { p.free <- b }
