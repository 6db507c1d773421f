package routes

import (
	"fmt"
	"math"

	"github.com/pathflow/pathflow/internal/geoparquet"
	"github.com/pathflow/pathflow/internal/graph"
)

// lineCoords are the network's points in the form WKB lines copy
// (geoparquet.Coords), encoded once for every route an Index draws: a
// route of 645 points is then its runs copied, not 645 conversions and
// a pass for its bounding box (100,000 Delaware routes: about 0.7 of 4
// cpu-s before). 16 bytes a vertex and a geometry point, 16 an arc for its
// box.
type lineCoords struct {
	vertices geoparquet.Coords // vertex v at v*16
	points   geoparquet.Coords // the geometry's points, in its order
	// arcBox[a] is the bounding box of arc a's intermediate points in
	// graph.UnitsPerDegree units (xmin, ymin, xmax, ymax), inverted for
	// an arc without any.
	arcBox [][4]int32
	err    error
}

// lines returns ix's line coordinates, encoding them on the first call.
// O(n + points) then.
func (ix *Index) lines() (*lineCoords, error) {
	ix.linesOnce.Do(func() {
		ix.lineCoords = encodeLines(ix.net)
	})
	return ix.lineCoords, ix.lineCoords.err
}

func encodeLines(net Network) *lineCoords {
	l := &lineCoords{}
	vs, geo := net.Vertices, net.Geometry
	if vs == nil {
		l.err = fmt.Errorf("routes: a network without vertex positions has no lines")
		return l
	}
	if l.vertices, l.err = geoparquet.AppendCoordsUnits(nil, vs.X, vs.Y, graph.UnitsPerDegree); l.err != nil {
		l.err = fmt.Errorf("routes: vertex positions: %w", l.err)
		return l
	}
	if l.points, l.err = geoparquet.AppendCoordsUnits(nil, geo.X, geo.Y, graph.UnitsPerDegree); l.err != nil {
		l.err = fmt.Errorf("routes: arc geometry: %w", l.err)
		return l
	}
	l.arcBox = make([][4]int32, geo.Arcs())
	for a := range l.arcBox {
		box := [4]int32{math.MaxInt32, math.MaxInt32, math.MinInt32, math.MinInt32}
		x, y := geo.Points(a)
		for i := range x {
			box[0], box[1] = min(box[0], x[i]), min(box[1], y[i])
			box[2], box[3] = max(box[2], x[i]), max(box[3], y[i])
		}
		l.arcBox[a] = box
	}
	return l
}

// LinePoints is the number of points of the route through vertices along
// arcs (Arcs' answer for them): the vertices and the arcs' intermediate
// points, as Points gives them. O(vertices).
func (ix *Index) LinePoints(vertices, arcs []int32) int {
	points := len(vertices)
	if geo := ix.net.Geometry; len(geo.Offsets) != 0 {
		for _, a := range arcs {
			points += int(geo.Offsets[a+1] - geo.Offsets[a])
		}
	}
	return points
}

// WriteLine writes into coords (LinePoints x 16 bytes) the route through
// vertices along arcs in the geoparquet.Coords form, for
// geoparquet.Rows.AppendLineWith: each vertex's position, and between two
// vertices the arc's intermediate points in travel order, the points
// Points gives, copied from their encoding of the first call. box is their
// bounding box: the extremes in the network's fixed-point units, each
// divided once, which is the box of the points in degrees since a
// division keeps order. The network must have vertex positions.
// O(points) beyond a first call's encoding, which holds every vertex and
// geometry point of the network at 16 bytes (twice what the geometry
// table holds) and costs a pass over that table: it pays on runs of many
// routes (100,000 on Delaware: 0.76 -> 0.51-0.60 cpu-s for the lines),
// and is a cost without return for a handful of routes on a large
// network.
func (ix *Index) WriteLine(coords []byte, vertices, arcs []int32) (box geoparquet.Box, err error) {
	l, err := ix.lines()
	if err != nil {
		return box, err
	}
	vs, geo := ix.net.Vertices, ix.net.Geometry
	hasGeometry := len(geo.Offsets) != 0
	xmin, ymin, xmax, ymax := int32(math.MaxInt32), int32(math.MaxInt32), int32(math.MinInt32), int32(math.MinInt32)
	const point = 16
	at := 0
	for i, v := range vertices {
		if i > 0 && hasGeometry {
			a := arcs[i-1]
			if lo, hi := geo.Offsets[a], geo.Offsets[a+1]; lo < hi {
				at += copy(coords[at:], l.points[lo*point:hi*point])
				b := &l.arcBox[a]
				xmin, ymin, xmax, ymax = min(xmin, b[0]), min(ymin, b[1]), max(xmax, b[2]), max(ymax, b[3])
			}
		}
		// A vertex is one point: an array assignment, where copy would
		// call memmove for 16 bytes (WriteLine on 100,000 Delaware
		// routes: 0.61-0.75 cpu-s with copy, 0.51-0.60 without).
		*(*[point]byte)(coords[at:]) = *(*[point]byte)(l.vertices[int(v)*point:])
		at += point
		x, y := vs.X[v], vs.Y[v]
		xmin, ymin, xmax, ymax = min(xmin, x), min(ymin, y), max(xmax, x), max(ymax, y)
	}
	if at != len(coords) {
		return box, fmt.Errorf("routes: a route of %d points written into room for %d", at/point, len(coords)/point)
	}
	if len(vertices) > 0 {
		box = geoparquet.Box{
			XMin: float64(xmin) / graph.UnitsPerDegree, YMin: float64(ymin) / graph.UnitsPerDegree,
			XMax: float64(xmax) / graph.UnitsPerDegree, YMax: float64(ymax) / graph.UnitsPerDegree,
		}
	}
	return box, nil
}
