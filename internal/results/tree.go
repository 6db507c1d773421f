package results

import "github.com/pathflow/pathflow/internal/paths"

// SingleSource is what a single-source result answers: implemented by Tree
// (a row of a block) and by *paths.Tree (a reference search's result).
type SingleSource interface {
	// From returns the source.
	From() int32
	// WeightTo returns the shortest distance from the source to v, or
	// paths.Unreachable.
	WeightTo(v int32) int64
	// To returns the path from the source to v, both included, or nil when
	// v is unreachable or no parents were kept.
	To(v int32) []int32
}

// Tree is a view of one full row of a block (every vertex, vertex v in
// column v): the shortest-path tree from the row's source. It reads the
// block's memory, so it is valid until the block is released; Copy keeps
// it longer.
type Tree struct {
	rows *Rows
	i    int
}

// Tree returns a view of row i, which must be a full row: not ragged or
// sparse, one column per vertex. O(1).
func (r *Rows) Tree(i int) Tree { return Tree{rows: r, i: i} }

// From returns the row's source. O(1).
func (t Tree) From() int32 { return t.rows.Sources[t.i] }

// WeightTo returns the shortest distance from the source to v, or
// paths.Unreachable. O(1).
func (t Tree) WeightTo(v int32) int64 {
	lo, _ := t.rows.Span(t.i)
	return t.rows.Distances().Weight(lo + int(v))
}

// Reachable reports whether the source reaches v. O(1).
func (t Tree) Reachable(v int32) bool {
	lo, _ := t.rows.Span(t.i)
	_, ok := t.rows.Distances().At(lo + int(v))
	return ok
}

// To returns the vertices of a shortest path from the source to v, both
// included, or nil when v is unreachable or the block has no parents.
// O(path length).
func (t Tree) To(v int32) []int32 {
	if !t.rows.Has(Parent) || !t.Reachable(v) {
		return nil
	}
	lo, hi := t.rows.Span(t.i)
	return paths.Trace(t.rows.Parent[lo:hi], v)
}

// Copy copies the row into a paths.Tree that shares no memory with the
// block. For checks and tests; the bulk output path reads the block
// directly. O(n).
func (t Tree) Copy() *paths.Tree {
	r := t.rows
	out := &paths.Tree{Source: t.From(), Dist: make([]int64, r.Width)}
	lo, hi := r.Span(t.i)
	dist := r.Distances()
	for v := range r.Width {
		out.Dist[v] = dist.Weight(lo + v)
	}
	if r.Has(Parent) {
		out.Parent = append([]int32(nil), r.Parent[lo:hi]...)
	}
	return out
}

// SparseTree copies sparse row i (see Rows.Vertices) into a paths.Tree over
// n vertices: the row's cells where it lists them, unreachable and without
// parent elsewhere. For checks and tests. O(n).
func (r *Rows) SparseTree(i int, n int32) *paths.Tree {
	out := paths.NewTree(n, r.Sources[i], r.Has(Parent))
	lo, hi := r.Span(i)
	dist := r.Distances()
	for at := lo; at < hi; at++ {
		v := r.Vertices[at]
		out.Dist[v] = dist.Weight(at)
		if r.Has(Parent) {
			out.Parent[v] = r.Parent[at]
		}
	}
	return out
}
