package resultfiles

import (
	"math/bits"
	"sync/atomic"

	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/results"
)

// VertexSet is a set of dense vertex ids below n: the vertices an output
// names, which a compute output's vertices table then holds instead of
// every vertex of the graph. Add may be called from any goroutine. n/8
// bytes.
type VertexSet struct {
	n     int
	words []atomic.Uint64
}

// NewVertexSet returns an empty set of ids in 0..n-1.
func NewVertexSet(n int) *VertexSet {
	return &VertexSet{n: n, words: make([]atomic.Uint64, (n+63)/64)}
}

// Add puts v in the set; v must lie in 0..n-1. A vertex already there
// costs a load, not a locked write.
func (s *VertexSet) Add(v int32) {
	w, bit := &s.words[v>>6], uint64(1)<<(v&63)
	if w.Load()&bit == 0 {
		w.Or(bit)
	}
}

// AddAll puts every vertex of vs in the set.
func (s *VertexSet) AddAll(vs []int32) {
	for _, v := range vs {
		s.Add(v)
	}
}

// IDs returns the set's ids in increasing order. O(n/64 + ids).
func (s *VertexSet) IDs() []int32 {
	count := 0
	for i := range s.words {
		count += bits.OnesCount64(s.words[i].Load())
	}
	ids := make([]int32, 0, count)
	for i := range s.words {
		for w := s.words[i].Load(); w != 0; w &= w - 1 {
			ids = append(ids, int32(i*64+bits.TrailingZeros64(w)))
		}
	}
	return ids
}

// NamesEveryVertex reports whether a distances table of the shape names
// every vertex of the graph: every vertex is a target and each row has a
// place for each, a long row per (source, vertex) without a cutoff or a
// wide row's lists. Its vertices table is then the graph's whole.
func (s *ResultShape) NamesEveryVertex() bool {
	return !s.Narrowed() && (!s.HasCutoff() || s.Layout == Wide)
}

// CellVertices is the consumer of a run's blocks that adds to a VertexSet
// the vertices a distances table of the same shape names: its sources and
// targets (NewCellVertices adds them) and, cell by cell, the vertex of each
// cell the table writes (a target's cell beyond the cutoff is not written,
// the target is still named) and its parent when the table has parents.
// Its Put reads a block at once and releases it; it may be called from any
// goroutine.
type CellVertices struct {
	shape ResultShape
	set   *VertexSet
}

// NewCellVertices returns the consumer adding to set the vertices a table
// of shape names, with the shape's sources and targets already added.
// set must hold ids up to shape.Width-1.
func NewCellVertices(shape ResultShape, set *VertexSet) (*CellVertices, error) {
	if err := shape.check(); err != nil {
		return nil, err
	}
	set.AddAll(shape.Sources)
	set.AddAll(shape.Targets)
	for _, ts := range shape.SourceTargets {
		set.AddAll(ts)
	}
	return &CellVertices{shape: shape, set: set}, nil
}

// Put adds the block's written cells and releases it, a large block's
// rows on every core (forBlockRows; the set's Add is atomic). O(cells).
func (c *CellVertices) Put(rows *results.Rows) error {
	defer rows.Release()
	if err := c.shape.checkBlock(rows); err != nil {
		return err
	}
	parents := c.shape.Wants(results.Parent) && rows.Has(results.Parent)
	dist := rows.Distances()
	forBlockRows(rows, func(first, end int) {
		for r := first; r < end; r++ {
			lo, hi := rows.Span(r)
			targets := c.shape.RowTargets(rows.First + r)
			for at := lo; at < hi; at++ {
				if c.shape.HasCutoff() {
					if _, kept := dist.Within(at, c.shape.MaxDistance); !kept {
						continue
					}
				}
				switch {
				case rows.Sparse():
					c.set.Add(rows.Vertices[at])
				case targets == nil:
					c.set.Add(int32(at - lo))
				}
				if parents {
					if p := rows.Parent[at]; p != paths.NoParent {
						c.set.Add(p)
					}
				}
			}
		}
	})
	return nil
}

// Close has nothing to finish: the set is complete.
func (c *CellVertices) Close() error { return nil }

// Abort has nothing to release: Put holds no block.
func (c *CellVertices) Abort() {}

var _ results.Consumer = (*CellVertices)(nil)
