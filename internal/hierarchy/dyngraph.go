package hierarchy

import (
	"fmt"
	"sync/atomic"

	"github.com/pathflow/pathflow/internal/graph"
)

// darc is a whole arc of the graph being contracted: to the neighbour to
// (the head of an out-arc, the tail of an in-arc), with its weight, its
// metric (zero when the graph has none), its middle vertex (an original
// id, or NoMiddle) and the number of original arcs it stands for. Weights
// and metrics are int32 like the hierarchy's (Build refuses a shortcut
// that does not fit). The sign of hops says whether the arc is fresh:
// added or lowered since the vertex whose list holds it was last scored,
// so that scoring searches again only for the pairs of neighbours it
// touches (see contractor.simulate). The lists keep their arcs packed
// (arcList); darc is an arc whole, as they take and give it.
type darc struct {
	to   int32
	w    int32
	m    int32
	mid  int32
	hops int32 // negative when fresh
}

// searchArc is the part of an arc the witness searches read: neighbour
// and weight.
type searchArc struct {
	to int32
	w  int32
}

// arcInfo is the part of an arc only contraction reads: its metric, middle
// vertex and hops (negative when fresh), as in darc.
type arcInfo struct {
	m    int32
	mid  int32
	hops int32
}

// freshArc returns a fresh arc to to of weight w and metric m through mid
// standing for hops >= 1 original arcs, O(1).
func freshArc(to, w, m, mid, hops int32) darc { return darc{to: to, w: w, m: m, mid: mid, hops: -hops} }

// lighter reports whether a is shorter than b by (weight, metric), ties
// going to the smaller middle vertex so that the result does not depend
// on the order arcs arrive in. O(1).
func (a darc) lighter(b darc) bool {
	if a.w != b.w {
		return a.w < b.w
	}
	if a.m != b.m {
		return a.m < b.m
	}
	return a.mid < b.mid
}

// hopCount returns the number of original arcs a stands for, O(1).
func (a arcInfo) hopCount() int32 {
	if a.hops < 0 {
		return -a.hops
	}
	return a.hops
}

// fresh reports whether a was added or lowered since its list's vertex was
// last scored, O(1).
func (a arcInfo) fresh() bool { return a.hops < 0 }

// arcList is one vertex's arcs in one direction, in one []int32 with room
// for c arcs (capacity 5c). Its length is two per arc: the neighbour and
// weight of arc i at 2i and 2i+1, side by side, all that a witness search
// reads, so a search loads 8 bytes an arc, eight to a cache line, not the
// whole arc's 20. The metric, middle and hops of arc i, which only
// contraction reads, lie beyond the length, at 2c+3i. The whole arc
// still takes 20 bytes and the list one slice header.
type arcList []int32

// infoBase returns where the metric, middle and hops of arc 0 lie, O(1).
func (l arcList) infoBase() int { return 2 * (cap(l) / 5) }

// len returns the number of arcs, O(1).
func (l arcList) len() int { return len(l) / 2 }

// arc returns the neighbour and weight of arc i, O(1).
func (l arcList) arc(i int) searchArc { return searchArc{to: l[2*i], w: l[2*i+1]} }

// info returns the metric, middle and hops of arc i, O(1).
func (l arcList) info(i int) arcInfo {
	x := l[:cap(l)][l.infoBase()+3*i:]
	return arcInfo{m: x[0], mid: x[1], hops: x[2]}
}

// setInfo replaces the metric, middle and hops of arc i, O(1).
func (l arcList) setInfo(i int, a arcInfo) {
	x := l[:cap(l)][l.infoBase()+3*i:]
	x[0], x[1], x[2] = a.m, a.mid, a.hops
}

// whole returns arc i with all its fields, O(1).
func (l arcList) whole(i int) darc {
	x := l.info(i)
	return darc{to: l[2*i], w: l[2*i+1], m: x.m, mid: x.mid, hops: x.hops}
}

// find returns the index of the arc to neighbour x, or -1. O(len).
func (l arcList) find(x int32) int {
	for k := 0; k+1 < len(l); k += 2 {
		if l[k] == x {
			return k / 2
		}
	}
	return -1
}

// newArcList returns an empty list with room for c arcs, O(c).
func newArcList(c int) arcList { return make(arcList, 0, 5*c) }

// arcLists holds one direction's arcs of every vertex.
type arcLists []arcList

// upsert adds arc a to v's list, or lowers the arc to the same neighbour
// when a is lighter (darc.lighter). A full list moves to one with twice
// the room. O(deg(v)).
func (ls arcLists) upsert(v int32, a darc) {
	l := ls[v]
	if i := l.find(a.to); i >= 0 {
		if a.lighter(l.whole(i)) {
			l[2*i+1] = a.w
			l.setInfo(i, arcInfo{m: a.m, mid: a.mid, hops: a.hops})
		}
		return
	}
	n := l.len()
	if c := cap(l) / 5; n == c {
		grown := newArcList(max(2*c, 4))[:2*n]
		copy(grown, l)
		copy(grown[:cap(grown)][grown.infoBase():], l[:cap(l)][l.infoBase():l.infoBase()+3*n])
		l = grown
	}
	l = l[:2*n+2]
	l[2*n], l[2*n+1] = a.to, a.w
	l.setInfo(n, arcInfo{m: a.m, mid: a.mid, hops: a.hops})
	ls[v] = l
}

// settle marks every arc of v's list as not fresh, O(deg(v)).
func (ls arcLists) settle(v int32) {
	l := ls[v]
	x := l[:cap(l)][l.infoBase():]
	for k := 2; k < 3*l.len(); k += 3 {
		if x[k] < 0 {
			x[k] = -x[k]
		}
	}
}

// remove deletes v's arc to neighbour x, if any, by moving the last arc
// into its place, and returns the two positions (-1, -1 when x is not in
// the list). O(deg(v)).
func (ls arcLists) remove(v, x int32) (at, last int) {
	l := ls[v]
	i := l.find(x)
	if i < 0 {
		return -1, -1
	}
	last = l.len() - 1
	l[2*i], l[2*i+1] = l[2*last], l[2*last+1]
	l.setInfo(i, l.info(last))
	ls[v] = l[:2*last]
	return i, last
}

// dynGraph is the remaining graph during contraction: per vertex, its out-
// and in-arcs to vertices not yet contracted, at most one arc per
// neighbour and direction (the lightest). When every arc u -> v has a
// reverse v -> u of the same weight (symmetric: road networks without
// one-way streets, the road generator), in and out are the same lists and
// stay so: contraction adds each shortcut both ways, decided by one
// witness search, which halves the searches and the arcs kept.
type dynGraph struct {
	out, in   arcLists
	symmetric bool
	// metric says that arcs carry a metric (graph.CSR.Metric): witnesses
	// then count only when strictly shorter, so that every path shortest
	// by (weight, metric) keeps its shortcuts.
	metric bool
}

// newDynGraph copies g without self-loops, keeping the lightest of
// parallel arcs; it refuses negative weights. O(n + m * d), d the largest
// degree.
func newDynGraph(g *graph.CSR) (*dynGraph, error) { return newDynGraphIn(g, nil, 1) }

// newDynGraphIn is newDynGraph with the vertices renumbered: vertex i of
// the result is vertex order[i] of g (the ids of g when order is nil), and
// its arc lists lie in memory in that order. The lists are filled on
// workers goroutines, each vertex's by one of them, so the result does not
// depend on workers. O(n + m * d).
func newDynGraphIn(g *graph.CSR, order []int32, workers int) (*dynGraph, error) {
	n := int(g.N)
	d := &dynGraph{metric: g.Metric != nil}
	metricOf := func(a int64) int32 {
		if g.Metric == nil {
			return 0
		}
		return g.Metric[a]
	}
	var id []int32 // id[v]: the new id of vertex v of g
	if order != nil {
		id = inverse(order)
	}
	newID := func(v int32) int32 {
		if id == nil {
			return v
		}
		return id[v]
	}
	oldID := func(i int) int {
		if order == nil {
			return i
		}
		return int(order[i])
	}
	outDeg := make([]int32, n)
	inDeg := make([]int32, n)
	for u := range n {
		for a := g.Offsets[u]; a < g.Offsets[u+1]; a++ {
			if g.Weights[a] < 0 {
				return nil, fmt.Errorf("hierarchy: arc %d -> %d has negative weight %d; contraction hierarchies need weights >= 0", u, g.Targets[a], g.Weights[a])
			}
			if v := g.Targets[a]; v != int32(u) {
				outDeg[newID(int32(u))]++
				inDeg[newID(v)]++
			}
		}
	}
	// One backing array per direction, sliced per vertex with spare room
	// for a few shortcuts, so the common case needs no allocation. The
	// in-arcs are made only when the graph is not symmetric.
	const spare = 2
	lists := func(deg []int32) arcLists {
		l := make(arcLists, n)
		back := make([]int32, 5*(int(g.Offsets[n])+spare*n))
		o := 0
		for v := range n {
			end := o + 5*(int(deg[v])+spare)
			l[v] = back[o:o:end]
			o = end
		}
		return l
	}
	d.out = lists(outDeg)
	forRanges(n, workers, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			u := oldID(i)
			for a := g.Offsets[u]; a < g.Offsets[u+1]; a++ {
				if v := g.Targets[a]; v != int32(u) {
					d.out.upsert(int32(i), freshArc(newID(v), g.Weights[a], metricOf(a), NoMiddle, 1))
				}
			}
		}
	})
	id = nil
	if d.isSymmetric(workers) {
		d.in, d.symmetric = d.out, true
		return d, nil
	}
	// Each worker reads every out-arc and fills the in-lists of its own
	// range of heads, in the order of the tails as one goroutine would.
	d.in = lists(inDeg)
	forRanges(workers, workers, func(w, _, _ int) {
		lo, hi := int32(n*w/workers), int32(n*(w+1)/workers)
		for u, l := range d.out {
			for i := range l.len() {
				if a := l.arc(i); a.to >= lo && a.to < hi {
					d.in.upsert(a.to, freshArc(int32(u), a.w, l.info(i).m, NoMiddle, 1))
				}
			}
		}
	})
	return d, nil
}

// isSymmetric reports whether every out-arc u -> v has an out-arc v -> u of
// the same weight and metric, on workers goroutines. O(m * d).
func (d *dynGraph) isSymmetric(workers int) bool {
	var asymmetric atomic.Bool
	forRanges(len(d.out), workers, func(_, lo, hi int) {
		for u := lo; u < hi && !asymmetric.Load(); u++ {
			l := d.out[u]
			for k := range l.len() {
				a := l.whole(k)
				back := d.out[a.to]
				i := back.find(int32(u))
				if i < 0 || back.whole(i).w != a.w || back.whole(i).m != a.m {
					asymmetric.Store(true)
					return
				}
			}
		}
	})
	return !asymmetric.Load()
}
