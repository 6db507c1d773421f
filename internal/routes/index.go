package routes

import (
	"cmp"
	"fmt"
	"slices"
	"sync"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/tables"
)

// NoArc is what Index.Arc returns for a pair of vertices no arc joins.
const NoArc = -1

// Network is a road network as the routes read it. Edges and Vertices
// are the graph; the rest is per arc (by its row in Edges) and optional.
type Network struct {
	Edges *graph.EdgeList
	// Vertices must be geographic for Line (graph.Vertices.IsGeographic).
	Vertices *graph.Vertices
	// Geometry holds each arc's intermediate points; zero: every arc a
	// straight segment.
	Geometry tables.ArcGeometry
	// TimeMS and LengthM are each arc's travel time in milliseconds and
	// length in metres; nil where the input has none.
	TimeMS, LengthM []int32
}

// Index finds the arcs of paths: the arcs into each vertex, ordered by
// their tail, then by the arc the route takes between the same two
// vertices first. It is read-only once built: goroutines share one.
type Index struct {
	net Network
	// inOffsets[v]..inOffsets[v+1]-1 index in, the arcs into v with their
	// tails and weights: a walk back and a search for the arc between two
	// vertices read them in order instead of looking each arc up in the
	// edge list.
	inOffsets []int64
	in        []inArc
	// walksEnd says that the parent rule never loops on this network
	// (paths.EdgesMayLoop is false), so a Tracer may walk paths back one
	// by one.
	walksEnd bool
	// lineCoords are the points WriteLine copies, made on its first call.
	lineCoords *lineCoords
	linesOnce  sync.Once
}

// inArc is an arc into a vertex: its tail, weight and row in the edge
// list, side by side, so that a step of a walk back or of a route, which
// reads a vertex's arcs at a place no step before it touched, waits on
// one cache line rather than one for each of three arrays (100,000
// Delaware routes: the walks back spent two thirds of their time on such
// loads).
type inArc struct {
	tail, weight, arc int32
}

// NewIndex indexes net's arcs by head. Per-arc slices that are not nil
// must have one entry per arc, and a geometry one offset per arc and one
// more. O(n + m log d), d the largest in-degree; 12 bytes an arc.
func NewIndex(net Network) (*Index, error) {
	e := net.Edges
	m := len(e.Src)
	for _, c := range []struct {
		name string
		n    int
	}{{"time", len(net.TimeMS)}, {"length", len(net.LengthM)}} {
		if c.n != 0 && c.n != m {
			return nil, fmt.Errorf("routes: %d %s values for %d arcs", c.n, c.name, m)
		}
	}
	if len(net.Geometry.Offsets) != 0 && net.Geometry.Arcs() != m {
		return nil, fmt.Errorf("routes: geometry of %d arcs for %d arcs", net.Geometry.Arcs(), m)
	}
	ix := &Index{net: net, inOffsets: make([]int64, e.N+1)}
	for _, v := range e.Dst {
		ix.inOffsets[v+1]++
	}
	for v := range e.N {
		ix.inOffsets[v+1] += ix.inOffsets[v]
	}
	inArcs := make([]int32, m)
	next := slices.Clone(ix.inOffsets[:e.N])
	for a, v := range e.Dst {
		inArcs[next[v]] = int32(a)
		next[v]++
	}
	for v := range e.N {
		arcs := inArcs[ix.inOffsets[v]:ix.inOffsets[v+1]]
		if len(arcs) > 1 {
			slices.SortFunc(arcs, ix.routeOrder)
		}
	}
	ix.in = make([]inArc, m)
	for i, a := range inArcs {
		ix.in[i] = inArc{tail: e.Src[a], weight: e.Weight[a], arc: a}
	}
	ix.walksEnd = !paths.EdgesMayLoop(e)
	return ix, nil
}

// routeOrder orders arcs into one vertex: by tail, then the one a route
// takes between the same two vertices first (lightest, then quickest,
// then shortest, then the first row).
func (ix *Index) routeOrder(a, b int32) int {
	e := ix.net.Edges
	if c := cmp.Compare(e.Src[a], e.Src[b]); c != 0 {
		return c
	}
	if c := cmp.Compare(e.Weight[a], e.Weight[b]); c != 0 {
		return c
	}
	if t := ix.net.TimeMS; t != nil {
		if c := cmp.Compare(t[a], t[b]); c != 0 {
			return c
		}
	}
	if l := ix.net.LengthM; l != nil {
		if c := cmp.Compare(l[a], l[b]); c != 0 {
			return c
		}
	}
	return cmp.Compare(a, b)
}

// Network returns the network ix indexes.
func (ix *Index) Network() Network { return ix.net }

// HasTime and HasLength report whether the arcs carry a travel time and a
// length.
func (ix *Index) HasTime() bool   { return ix.net.TimeMS != nil }
func (ix *Index) HasLength() bool { return ix.net.LengthM != nil }

// Arc returns the arc a route takes from u to v, NoArc when there is
// none. O(in-degree of v).
func (ix *Index) Arc(u, v int32) int32 {
	lo, hi := ix.inOffsets[v], ix.inOffsets[v+1]
	for _, in := range ix.in[lo:hi] {
		if in.tail == u {
			return in.arc
		}
	}
	return NoArc
}

// Arcs appends to dst the arcs a route through vertices takes, one per
// step, and reports false if a step has no arc. O(path length x
// in-degree).
func (ix *Index) Arcs(dst []int32, vertices []int32) ([]int32, bool) {
	for i := 1; i < len(vertices); i++ {
		a := ix.Arc(vertices[i-1], vertices[i])
		if a == NoArc {
			return dst, false
		}
		dst = append(dst, a)
	}
	return dst, true
}

// Totals returns the travel time (ms) and length (m) summed over arcs; 0
// for a metric the network lacks. O(len(arcs)).
func (ix *Index) Totals(arcs []int32) (timeMS, lengthM int64) {
	t, l := ix.net.TimeMS, ix.net.LengthM
	for _, a := range arcs {
		if t != nil {
			timeMS += int64(t[a])
		}
		if l != nil {
			lengthM += int64(l[a])
		}
	}
	return timeMS, lengthM
}

// Points appends to x and y the points of the route through vertices
// along arcs (Arcs' answer for them), in units of 1/graph.UnitsPerDegree
// degree as the network keeps them: each vertex, and between two vertices
// the arc's intermediate points in travel order. O(points).
func (ix *Index) Points(x, y []int32, vertices, arcs []int32) ([]int32, []int32) {
	vs, geo := ix.net.Vertices, ix.net.Geometry
	for i, v := range vertices {
		if i > 0 && len(geo.Offsets) != 0 {
			ax, ay := geo.Points(int(arcs[i-1]))
			x, y = append(x, ax...), append(y, ay...)
		}
		x, y = append(x, vs.X[v]), append(y, vs.Y[v])
	}
	return x, y
}
