package routes

import (
	"slices"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/results"
)

// Tracer reads the paths of one source at a time off its distances. It
// holds one goroutine's scratch space; Fork makes another's.
type Tracer struct {
	ix  *Index
	csr *graph.CSR // the forward graph, for mending a tree (paths.Repair)
	// plateau holds the vertices of the current run of zero-weight steps,
	// where the walk back could loop.
	plateau []int32
	// tree is the whole mended tree of source, built only once a walk
	// back looped (tree.source == -1: none), by parents, made then.
	tree      treeCache
	parents   *paths.ParentFinder
	treeBuilt int
}

type treeCache struct {
	source int32
	dist   []int64
	parent []int32
}

// NewTracer returns a Tracer over ix; csr is the same graph grouped by
// source (graph.BuildCSR of the index's edges, or what the run loaded).
// O(1); a source whose walk back loops costs O(n) memory once.
func NewTracer(ix *Index, csr *graph.CSR) *Tracer {
	return &Tracer{ix: ix, csr: csr, tree: treeCache{source: -1}}
}

// Fork returns a Tracer over the same index for another goroutine.
func (t *Tracer) Fork() *Tracer { return NewTracer(t.ix, t.csr) }

// TreesBuilt returns how many sources needed their whole tree (a walk
// back that looped over arcs of weight zero).
func (t *Tracer) TreesBuilt() int { return t.treeBuilt }

// Path appends to dst the vertices of the shortest path from source to
// target, both included, that the parent rule gives (the in-neighbour of
// smallest id on a shortest path), and its distance; ok is false when
// target is unreachable. dist must be source's exact distances to every
// vertex, by vertex (a whole row of a block).
// O(path length x in-degree), O(n + m) once per source whose walk loops.
func (t *Tracer) Path(dst []int32, source, target int32, dist results.Distances) (vertices []int32, cost int64, ok bool) {
	dt, ok := dist.At(int(target))
	if !ok {
		return dst, paths.Unreachable, false
	}
	if t.tree.source == source {
		return t.treePath(dst, target), dt, true
	}
	start := len(dst)
	e := t.ix.net.Edges
	t.plateau = t.plateau[:0]
	v, dv := target, dt
	dst = append(dst, v)
	for v != source {
		next := int32(-1)
		var dn int64
		for _, a := range t.ix.inArcs[t.ix.inOffsets[v]:t.ix.inOffsets[v+1]] {
			u := e.Src[a]
			if u == v {
				continue
			}
			du, reached := dist.At(int(u))
			if reached && du+int64(e.Weight[a]) == dv {
				next, dn = u, du
				break // arcs come by tail: the first tight one has the smallest
			}
		}
		if next < 0 {
			break // distances that are not exact: no way back
		}
		if dn == dv { // a step of weight zero: the rule may walk in a loop
			if len(t.plateau) == 0 {
				t.plateau = append(t.plateau, v)
			}
			if slices.Contains(t.plateau, next) {
				t.buildTree(source, dist)
				return t.treePath(dst[:start], target), dt, true
			}
			t.plateau = append(t.plateau, next)
		} else {
			t.plateau = t.plateau[:0]
		}
		v, dv = next, dn
		dst = append(dst, v)
	}
	if v != source {
		t.buildTree(source, dist)
		return t.treePath(dst[:start], target), dt, true
	}
	slices.Reverse(dst[start:])
	return dst, dt, true
}

// buildTree builds source's whole tree by the parent rule and mends it
// into a tree as the backends do where the rule loops
// (paths.ParentFinder). O(n + m).
func (t *Tracer) buildTree(source int32, dist results.Distances) {
	n := int(t.ix.net.Edges.N)
	if t.parents == nil {
		t.tree.dist, t.tree.parent = make([]int64, n), make([]int32, n)
		t.parents = paths.NewParentFinder(t.csr)
	}
	for v := range n {
		dv, ok := dist.At(v)
		if !ok {
			dv = paths.Unreachable
		}
		t.tree.dist[v] = dv
	}
	// The rows have n entries, the graph's vertex count, by construction.
	if err := t.parents.Parents(source, t.tree.dist, t.tree.parent); err != nil {
		panic(err)
	}
	t.tree.source = source
	t.treeBuilt++
}

// treePath appends the path to target read off the built tree.
func (t *Tracer) treePath(dst []int32, target int32) []int32 {
	start := len(dst)
	for v := target; v != paths.NoParent; v = t.tree.parent[v] {
		dst = append(dst, v)
	}
	slices.Reverse(dst[start:])
	return dst
}
