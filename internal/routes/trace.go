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
	// tree is the whole mended tree of source (tree.source == -1: none),
	// built where walks back could loop, by parents, made then.
	tree      treeCache
	parents   *paths.ParentFinder
	treeBuilt int
	// walked remembers the parent the rule gave each vertex on a path of
	// the current source already read (walked.source), so that the next
	// target's walk back stops scanning arcs where it meets one: the paths
	// of one source share their first kilometres.
	walked walkMemo
	// placed says where in dst a vertex lies on a path of the current
	// Paths call, and back holds a walk back from its target.
	placed placedMemo
	back   []int32
}

// placedMemo holds, for one call of Paths, the vertices placed in its dst
// (vertex[v].stamp == epoch).
type placedMemo struct {
	epoch  uint32
	vertex []placedVertex
}

// placedVertex says where Paths placed a vertex: at dst[at], on a path
// whose start lies depth places before it. The three side by side are
// one cache line for a walk back to test and fill, where three arrays
// were three.
type placedVertex struct {
	stamp uint32
	depth int32
	at    int
}

// walkMemo holds, for one source, parent[v] where stamp[v] == epoch.
type walkMemo struct {
	source int32
	epoch  uint32
	stamp  []uint32
	parent []int32
}

// start makes the memo the empty one of source, keeping what it holds if
// source is already its own. O(1), O(n) once.
func (m *walkMemo) start(source int32, n int) {
	if m.stamp == nil {
		m.stamp, m.parent = make([]uint32, n), make([]int32, n)
		m.source = -1
	}
	if m.source == source {
		return
	}
	m.source = source
	m.epoch++
	if m.epoch == 0 { // wrapped: stamps of 2^32 sources ago would match
		clear(m.stamp)
		m.epoch = 1
	}
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

// TreesBuilt returns how many sources needed their whole tree: on a
// network where arcs of weight zero close a cycle, or with distances
// that are not exact.
func (t *Tracer) TreesBuilt() int { return t.treeBuilt }

// Path appends to dst the vertices of the shortest path from source to
// target, both included, that the parents of the backends describe, and
// its distance; ok is false when target is unreachable. dist must be
// source's exact distances to every vertex, by vertex (a whole row of a
// block).
//
// Where the parent rule cannot loop (every weight positive, or arcs of
// weight zero that close no cycle), the path is walked back from target:
// each step takes the in-neighbour of smallest id on a shortest path,
// and stops scanning arcs where it meets a vertex an earlier path of the
// same source walked through. Elsewhere the rule may close a cycle for
// some sources, which the backends mend by rebuilding the source's whole
// tree (paths.Repair), changing paths that do not touch the cycle too; so
// there every source's tree is built, once, and read.
// O(path length x in-degree), or O(n + m) once per source.
func (t *Tracer) Path(dst []int32, source, target int32, dist results.Distances) (vertices []int32, cost int64, ok bool) {
	dt, ok := dist.At(int(target))
	if !ok {
		return dst, paths.Unreachable, false
	}
	if t.tree.source != source && !t.ix.walksEnd {
		t.buildTree(source, dist)
	}
	if t.tree.source == source {
		return t.treePath(dst, target), dt, true
	}
	start := len(dst)
	e := t.ix.net.Edges
	t.walked.start(source, int(e.N))
	memo := &t.walked
	v, dv := target, dt
	dst = append(dst, v)
	fresh := 1 // vertices found by scanning arcs, from dst[start] on
	for v != source {
		if memo.stamp[v] == memo.epoch {
			// A walk of this source went on from v to the source: the rule
			// takes the same steps again.
			for v != source {
				v = memo.parent[v]
				dst = append(dst, v)
			}
			break
		}
		next, dn := t.stepBack(v, dv, dist)
		if next < 0 || fresh > int(e.N) {
			// Distances that are not exact: no way back, or one that
			// loops. The tree says what the backends would.
			t.buildTree(source, dist)
			return t.treePath(dst[:start], target), dt, true
		}
		v, dv = next, dn
		dst = append(dst, v)
		fresh++
	}
	slices.Reverse(dst[start:])
	for i := max(len(dst)-fresh, start+1); i < len(dst); i++ {
		memo.stamp[dst[i]], memo.parent[dst[i]] = memo.epoch, dst[i-1]
	}
	return dst, dt, true
}

// stepBack returns the in-neighbour of v, at distance dv, that the
// parent rule takes and its distance: the first tight arc's tail, -1 if
// none. O(in-degree of v).
func (t *Tracer) stepBack(v int32, dv int64, dist results.Distances) (int32, int64) {
	lo, hi := t.ix.inOffsets[v], t.ix.inOffsets[v+1]
	for _, in := range t.ix.in[lo:hi] {
		u := in.tail
		if u == v {
			continue
		}
		du, reached := dist.At(int(u))
		if reached && du+int64(in.weight) == dv {
			return u, du // arcs come by tail: the first tight one has the smallest
		}
	}
	return -1, 0
}

// Paths appends to dst the paths from source to each of targets, one
// after another, each as Path reads it; to ends, where each ends in dst
// (an unreachable target's path is empty); and to costs, its distance
// (paths.Unreachable: none). The paths of a source are branches of its
// tree: where a walk back meets a vertex an earlier path of the call ran
// through, the rest of the path is that path's start, copied from dst,
// rather than the parents walked one by one (on 100,000 Delaware routes
// 85% of the vertices). dist is as Path's. O(path length x in-degree)
// for the steps no earlier path of the call took, O(1) a vertex for the
// rest; O(n) memory once.
func (t *Tracer) Paths(dst []int32, ends []int, costs []int64, source int32, targets []int32, dist results.Distances) ([]int32, []int, []int64) {
	n := int(t.ix.net.Edges.N)
	p := &t.placed
	if p.vertex == nil {
		p.vertex = make([]placedVertex, n)
	}
	if p.epoch++; p.epoch == 0 { // wrapped: stamps of 2^32 calls ago would match
		clear(p.vertex)
		p.epoch = 1
	}
	for _, target := range targets {
		dt, ok := dist.At(int(target))
		if !ok || !t.ix.walksEnd || t.tree.source == source {
			var cost int64
			dst, cost, _ = t.Path(dst, source, target, dist)
			ends, costs = append(ends, len(dst)), append(costs, cost)
			continue
		}
		// Walk back to the source or to a vertex placed in dst.
		back := t.back[:0]
		v, dv, join := target, dt, int32(-1)
		for {
			if p.vertex[v].stamp == p.epoch {
				join = v
				break
			}
			back = append(back, v)
			if v == source {
				break
			}
			next, dn := t.stepBack(v, dv, dist)
			if next < 0 || len(back) > n {
				break // distances that are not exact: the tree decides
			}
			v, dv = next, dn
		}
		t.back = back
		if join < 0 && back[len(back)-1] != source {
			t.buildTree(source, dist)
			dst = t.treePath(dst, target)
			ends, costs = append(ends, len(dst)), append(costs, dt)
			continue
		}
		start := len(dst)
		if join >= 0 {
			j := &p.vertex[join]
			dst = append(dst, dst[j.at-int(j.depth):j.at+1]...)
		}
		for i := len(back) - 1; i >= 0; i-- {
			v := back[i]
			dst = append(dst, v)
			p.vertex[v] = placedVertex{stamp: p.epoch, depth: int32(len(dst) - 1 - start), at: len(dst) - 1}
		}
		ends, costs = append(ends, len(dst)), append(costs, dt)
	}
	return dst, ends, costs
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
