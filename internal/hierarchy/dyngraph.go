package hierarchy

import (
	"fmt"

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
// touches (see contractor.simulate). The lists keep an arc in two parts,
// searchArc and arcInfo; darc is the value they are made from and give.
type darc struct {
	to   int32
	w    int32
	m    int32
	mid  int32
	hops int32 // negative when fresh
}

// searchArc is the part of an arc the witness searches read, neighbour and
// weight side by side: 8 bytes, eight to a cache line, where the whole arc
// (20 bytes) would make a search load two to three times the lines for the
// arc lists of the vertices it settles.
type searchArc struct {
	to int32
	w  int32
}

// arcInfo is the part of an arc only contraction reads: its metric, middle
// vertex and hops (negative when fresh), as in darc. 12 bytes.
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

// arcLists holds one direction's arcs of every vertex in two parallel
// lists: arcs[v][i] and info[v][i] are the two parts of v's i-th arc, so
// the searches walk 8-byte arcs and contraction finds the rest at the
// same position. The two lists of a vertex always have the same length.
type arcLists struct {
	arcs [][]searchArc
	info [][]arcInfo
}

// at returns v's i-th arc whole, O(1).
func (l arcLists) at(v int32, i int) darc {
	a, x := l.arcs[v][i], l.info[v][i]
	return darc{to: a.to, w: a.w, m: x.m, mid: x.mid, hops: x.hops}
}

// upsert adds arc a to v's list, or lowers the arc to the same neighbour
// when a is lighter (darc.lighter). O(deg(v)).
func (l arcLists) upsert(v int32, a darc) {
	arcs := l.arcs[v]
	for i := range arcs {
		if arcs[i].to == a.to {
			if a.lighter(l.at(v, i)) {
				arcs[i].w = a.w
				l.info[v][i] = arcInfo{m: a.m, mid: a.mid, hops: a.hops}
			}
			return
		}
	}
	l.arcs[v] = append(arcs, searchArc{to: a.to, w: a.w})
	l.info[v] = append(l.info[v], arcInfo{m: a.m, mid: a.mid, hops: a.hops})
}

// settle marks every arc of v's list as not fresh, O(deg(v)).
func (l arcLists) settle(v int32) {
	info := l.info[v]
	for i := range info {
		info[i].hops = info[i].hopCount()
	}
}

// remove deletes v's arc to neighbour x, if any, by moving the last arc
// into its place, and returns the two positions (-1, -1 when x is not in
// the list). O(deg(v)).
func (l arcLists) remove(v, x int32) (at, last int) {
	arcs, info := l.arcs[v], l.info[v]
	for i := range arcs {
		if arcs[i].to == x {
			last = len(arcs) - 1
			arcs[i], info[i] = arcs[last], info[last]
			l.arcs[v], l.info[v] = arcs[:last], info[:last]
			return i, last
		}
	}
	return -1, -1
}

// find returns the index of the arc to neighbour x in list, or -1.
// O(len(list)).
func find(list []searchArc, x int32) int {
	for i := range list {
		if list[i].to == x {
			return i
		}
	}
	return -1
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
	lists := func(deg []int32) arcLists {
		l := arcLists{arcs: make([][]searchArc, n), info: make([][]arcInfo, n)}
		size := int(g.Offsets[n]) + spare*n
		arcs, info := make([]searchArc, 0, size), make([]arcInfo, 0, size)
		for v := range n {
			o := len(arcs)
			end := o + int(deg[v]) + spare
			arcs, info = arcs[:end], info[:end]
			l.arcs[v], l.info[v] = arcs[o:o:end], info[o:o:end]
		}
		return l
	}
	d.out = lists(outDeg)
	for i := range n {
		u := oldID(i)
		for a := g.Offsets[u]; a < g.Offsets[u+1]; a++ {
			if v := g.Targets[a]; v != int32(u) {
				d.out.upsert(int32(i), freshArc(newID(v), g.Weights[a], metricOf(a), NoMiddle, 1))
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
		for i, a := range d.out.arcs[u] {
			d.in.upsert(a.to, freshArc(int32(u), a.w, d.out.info[u][i].m, NoMiddle, 1))
		}
	}
	return d, nil
}

// isSymmetric reports whether every out-arc u -> v has an out-arc v -> u of
// the same weight and metric. O(m * d).
func (d *dynGraph) isSymmetric() bool {
	for u, list := range d.out.arcs {
		for k, a := range list {
			i := find(d.out.arcs[a.to], int32(u))
			if i < 0 || d.out.arcs[a.to][i].w != a.w || d.out.info[a.to][i].m != d.out.info[u][k].m {
				return false
			}
		}
	}
	return true
}
