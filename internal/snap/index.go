package snap

import (
	"errors"
	"fmt"

	"github.com/pathflow/pathflow/internal/earth"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/hugepages"
	"github.com/pathflow/pathflow/internal/parallel"
	"github.com/pathflow/pathflow/internal/tables"
)

// Network is what snapping needs of a road network.
type Network struct {
	// Vertices are Geographic: longitude and latitude in 10^-7 degree.
	Vertices *graph.Vertices
	// Edges are the arcs and their weights (travel time in milliseconds,
	// say); the seeds of a snapped point carry shares of these weights.
	Edges *graph.EdgeList
	// Geometry holds the intermediate points of each arc (Offsets of
	// length M+1); empty Offsets mean that every arc is a straight
	// segment between its ends.
	Geometry tables.ArcGeometry
}

// Index finds the nearest position on a road network to a point. It holds
// every stretch of road once (an arc, or an arc and its reverse twin) as
// the polyline from the arc's tail through its intermediate points to its
// head, and two structures over the polylines' segments: a grid of cells
// (segmentGrid) and an R-tree (segmentTree). An Index is read-only once
// built and safe for concurrent use.
type Index struct {
	edges *graph.EdgeList
	// forward[s] is the arc stretch s follows; backward[s] its reverse
	// twin, or -1 when the stretch is one-way.
	forward, backward []int32
	// first[s] is stretch s's first point; its points run to
	// first[s+1]-1 (len = stretches + 1).
	first []int32
	// points are every point of every stretch, in stretch order.
	points []point
	// stretches hold what placing a point on a stretch reads, together.
	stretches []stretch
	// tree holds every segment, named by its first point p (the segment
	// runs from p to p+1).
	tree segmentTree
	// grid buckets the same segments for the first rings of a search.
	grid segmentGrid
}

// point is a point of a stretch. A search ends reading the two points of
// one segment: one record of both coordinates, the length up to the
// point and the stretch is one or two cache lines, where four slices took
// four to eight.
type point struct {
	lon, lat float64 // degrees
	along    float64 // metres from the stretch's first point along its polyline
	stretch  int32
}

// stretch is a stretch of road as placing a point on it reads it.
type stretch struct {
	forward, backward             int32 // the arcs; backward -1 when one-way
	tail, head                    int32 // forward's
	forwardWeight, backwardWeight int32
	first, last                   int32 // its first and last points
	lengthM                       float64
}

// NewIndex indexes the network's arcs for snapping: it pairs each arc
// with its reverse twin (the other direction of a two-way street), lays
// out each stretch's points and lengths on workers goroutines (<= 0: one
// per CPU), packs every segment into an R-tree and buckets them into a
// grid. O(S log S + C) for S segments and C cells, about S (the sorts of
// arcs by end pair and of segments along the Hilbert curve).
func NewIndex(net Network, workers int) (*Index, error) {
	if err := check(net); err != nil {
		return nil, err
	}
	edges, vs, geometry := net.Edges, net.Vertices, net.Geometry
	twin := twins(edges, geometry)
	ix := &Index{edges: edges}
	for a := range twin {
		if twin[a] < 0 || int(twin[a]) > a {
			ix.forward = append(ix.forward, int32(a))
			ix.backward = append(ix.backward, twin[a])
		}
	}
	stretches := len(ix.forward)
	ix.first = make([]int32, stretches+1)
	for s, a := range ix.forward {
		points := int64(2)
		if len(geometry.Offsets) > 0 {
			points += geometry.Offsets[a+1] - geometry.Offsets[a]
		}
		next := int64(ix.first[s]) + points
		if next > 1<<31-1 {
			return nil, fmt.Errorf("snap: more than %d points on the network's arcs", 1<<31-1)
		}
		ix.first[s+1] = int32(next)
	}
	points := int(ix.first[stretches])
	ix.points = hugepages.Make[point](points)
	ix.stretches = hugepages.Make[stretch](stretches)
	parallel.Chunks(stretches, parallel.Workers(workers), 4096, func(_, lo, hi int) {
		for s := lo; s < hi; s++ {
			ix.layOut(s, vs, geometry)
		}
	})
	segments := hugepages.Make[int32](points - stretches)[:0]
	for p := range points - 1 {
		if ix.points[p].stretch == ix.points[p+1].stretch {
			segments = append(segments, int32(p))
		}
	}
	ix.tree = buildSegmentTree(ix, segments, parallel.Workers(workers))
	ix.grid = buildSegmentGrid(&ix.tree, parallel.Workers(workers))
	return ix, nil
}

// layOut writes stretch s's points, in the direction of its forward arc,
// and the length of the polyline up to each, and its record.
func (ix *Index) layOut(s int, vs *graph.Vertices, geometry tables.ArcGeometry) {
	a := ix.forward[s]
	p := int(ix.first[s])
	put := func(x, y int32) {
		at := &ix.points[p]
		at.lon, at.lat, at.stretch = degrees(x), degrees(y), int32(s)
		if p > int(ix.first[s]) {
			before := &ix.points[p-1]
			at.along = before.along + earth.Distance(before.lon, before.lat, at.lon, at.lat)
		}
		p++
	}
	u, v := ix.edges.Src[a], ix.edges.Dst[a]
	put(vs.X[u], vs.Y[u])
	if len(geometry.Offsets) > 0 {
		xs, ys := geometry.Points(int(a))
		for k := range xs {
			put(xs[k], ys[k])
		}
	}
	put(vs.X[v], vs.Y[v])
	b := ix.backward[s]
	ix.stretches[s] = stretch{forward: a, backward: b, tail: u, head: v, forwardWeight: ix.edges.Weight[a], backwardWeight: -1,
		first: ix.first[s], last: ix.first[s+1] - 1, lengthM: ix.points[ix.first[s+1]-1].along}
	if b >= 0 {
		ix.stretches[s].backwardWeight = ix.edges.Weight[b]
	}
}

// check refuses a network the index cannot read: vertices without
// longitude and latitude, arcs naming vertices that do not exist, or a
// geometry whose offsets do not cover every arc.
func check(net Network) error {
	if net.Edges == nil {
		return errors.New("snap: a network without arcs")
	}
	if err := net.Edges.Validate(); err != nil {
		return fmt.Errorf("snap: %w", err)
	}
	if !net.Vertices.IsGeographic() {
		return errors.New("snap: the vertices have no longitude and latitude")
	}
	if n := int(net.Edges.N); len(net.Vertices.X) < n || len(net.Vertices.Y) < n {
		return fmt.Errorf("snap: coordinates of %d and %d vertices for a graph of %d", len(net.Vertices.X), len(net.Vertices.Y), n)
	}
	g := net.Geometry
	if len(g.Offsets) == 0 {
		return nil
	}
	if m := net.Edges.M(); len(g.Offsets) != m+1 {
		return fmt.Errorf("snap: arc geometry with %d offsets for %d arcs (want one more)", len(g.Offsets), m)
	}
	if len(g.X) != len(g.Y) || g.Offsets[0] != 0 || g.Offsets[len(g.Offsets)-1] != int64(len(g.X)) {
		return fmt.Errorf("snap: arc geometry offsets span [%d, %d] for %d longitudes and %d latitudes",
			g.Offsets[0], g.Offsets[len(g.Offsets)-1], len(g.X), len(g.Y))
	}
	for a := range len(g.Offsets) - 1 {
		if g.Offsets[a+1] < g.Offsets[a] {
			return fmt.Errorf("snap: arc geometry offsets decrease at arc %d", a)
		}
	}
	return nil
}

// Stretches returns how many stretches of road the index holds: arcs, a
// two-way street's pair of arcs counted once.
func (ix *Index) Stretches() int { return len(ix.forward) }

// Segments returns how many straight segments the index holds.
func (ix *Index) Segments() int { return len(ix.tree.segments) }
