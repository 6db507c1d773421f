package hierarchy

import (
	"fmt"
	"slices"

	"github.com/pathflow/pathflow/internal/graph"
)

// darc is an arc of the graph being contracted: to the neighbour to (the
// head of an out-arc, the tail of an in-arc), with its weight, its metric
// (zero when the graph has none), its middle vertex (an original id, or
// NoMiddle) and the number of original arcs it stands for. Weights and
// metrics are int32 like the hierarchy's (Build refuses a shortcut that
// does not fit), so an arc is 20 bytes. The sign of hops says whether the arc is
// fresh: added or lowered since the vertex whose list holds it was last
// scored, so that scoring searches again only for the pairs of neighbours
// it touches (see contractor.simulate).
type darc struct {
	to   int32
	w    int32
	m    int32
	mid  int32
	hops int32 // negative when fresh
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
func (a darc) hopCount() int32 {
	if a.hops < 0 {
		return -a.hops
	}
	return a.hops
}

// fresh reports whether a was added or lowered since its list's vertex was
// last scored, O(1).
func (a darc) fresh() bool { return a.hops < 0 }

// dynGraph is the remaining graph during contraction: per vertex, its out-
// and in-arcs to vertices not yet contracted, at most one arc per
// neighbour and direction (the lightest). When every arc u -> v has a
// reverse v -> u of the same weight (symmetric: road networks without
// one-way streets, the road generator), in and out are the same lists and
// stay so: contraction adds each shortcut both ways, decided by one
// witness search, which halves the searches and the arcs kept.
type dynGraph struct {
	out, in   [][]darc
	symmetric bool
	// metric says that arcs carry a metric (graph.CSR.Metric): witnesses
	// then count only when strictly shorter, so that every path shortest
	// by (weight, metric) keeps its shortcuts.
	metric bool
}

// newDynGraph copies g without self-loops, keeping the lightest of
// parallel arcs; it refuses negative weights. O(n + m * d), d the largest
// degree.
func newDynGraph(g *graph.CSR) (*dynGraph, error) { return newDynGraphIn(g, nil) }

// newDynGraphIn is newDynGraph with the vertices renumbered: vertex i of
// the result is vertex order[i] of g (the ids of g when order is nil), and
// its arc lists lie in memory in that order. O(n + m * d).
func newDynGraphIn(g *graph.CSR, order []int32) (*dynGraph, error) {
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
	lists := func(deg []int32) [][]darc {
		l := make([][]darc, n)
		back := make([]darc, 0, int(g.Offsets[n])+spare*n)
		for v := range n {
			o := len(back)
			back = back[:o+int(deg[v])+spare]
			l[v] = back[o : o : o+int(deg[v])+spare]
		}
		return l
	}
	d.out = lists(outDeg)
	for i := range n {
		u := oldID(i)
		for a := g.Offsets[u]; a < g.Offsets[u+1]; a++ {
			if v := g.Targets[a]; v != int32(u) {
				upsert(&d.out[i], freshArc(newID(v), g.Weights[a], metricOf(a), NoMiddle, 1))
			}
		}
	}
	id = nil
	if d.isSymmetric() {
		d.in, d.symmetric = d.out, true
		return d, nil
	}
	d.in = lists(inDeg)
	for u := range n {
		for _, a := range d.out[u] {
			upsert(&d.in[a.to], freshArc(int32(u), a.w, a.m, NoMiddle, 1))
		}
	}
	return d, nil
}

// isSymmetric reports whether every out-arc u -> v has an out-arc v -> u of
// the same weight and metric. O(m * d).
func (d *dynGraph) isSymmetric() bool {
	for u, list := range d.out {
		for _, a := range list {
			i := slices.IndexFunc(d.out[a.to], func(b darc) bool { return b.to == int32(u) })
			if i < 0 || d.out[a.to][i].w != a.w || d.out[a.to][i].m != a.m {
				return false
			}
		}
	}
	return true
}

// upsert adds arc a to list, or lowers the arc to the same neighbour
// when a is lighter (darc.lighter). O(len(list)).
func upsert(list *[]darc, a darc) {
	l := *list
	for i := range l {
		if l[i].to == a.to {
			if a.lighter(l[i]) {
				l[i] = a
			}
			return
		}
	}
	*list = append(l, a)
}

// settle marks every arc of list as not fresh, O(len(list)).
func settle(list []darc) {
	for i := range list {
		list[i].hops = list[i].hopCount()
	}
}

// find returns the index of the arc to neighbour v in list, or -1.
// O(len(list)).
func find(list []darc, v int32) int {
	for i := range list {
		if list[i].to == v {
			return i
		}
	}
	return -1
}

// remove deletes the arc to neighbour v from list, if any, by moving the
// last arc into its place, and returns the two positions (-1, -1 when v
// is not in list). O(len(list)).
func remove(list *[]darc, v int32) (at, last int) {
	l := *list
	for i := range l {
		if l[i].to == v {
			last = len(l) - 1
			l[i] = l[last]
			*list = l[:last]
			return i, last
		}
	}
	return -1, -1
}
