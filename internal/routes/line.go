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
// cpu-s before). What a step of a route reads of a vertex, and of an arc,
// lies side by side (vertexPoint, arcLine): the steps of routes land at
// scattered places, and each array read there is a cache miss of its own.
// 24 bytes a vertex, 16 a geometry point and 40 an arc.
type lineCoords struct {
	vertices []vertexPoint
	points   geoparquet.Coords // the geometry's points, in its order
	arcs     []arcLine         // by row in the edge list
	err      error
}

// vertexPoint is a vertex's point as a line holds it, and its position in
// graph.UnitsPerDegree units for the line's bounding box.
type vertexPoint struct {
	coords [pointBytes]byte
	x, y   int32
}

// arcLine is what a route's step along an arc adds: its intermediate
// points (points of them from points[first], none for a straight
// segment), their bounding box in graph.UnitsPerDegree units (xmin, ymin,
// xmax, ymax; inverted without points), and its travel time and length
// (0 for a metric the network lacks).
type arcLine struct {
	first           int64
	points          int32
	timeMS, lengthM int32
	box             [4]int32
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
	coords, err := geoparquet.AppendCoordsUnits(nil, vs.X, vs.Y, graph.UnitsPerDegree)
	if err != nil {
		l.err = fmt.Errorf("routes: vertex positions: %w", err)
		return l
	}
	l.vertices = make([]vertexPoint, len(vs.X))
	for v := range l.vertices {
		l.vertices[v] = vertexPoint{coords: [pointBytes]byte(coords[v*pointBytes:]), x: vs.X[v], y: vs.Y[v]}
	}
	if l.points, l.err = geoparquet.AppendCoordsUnits(nil, geo.X, geo.Y, graph.UnitsPerDegree); l.err != nil {
		l.err = fmt.Errorf("routes: arc geometry: %w", l.err)
		return l
	}
	l.arcs = make([]arcLine, len(net.Edges.Src))
	for a := range l.arcs {
		al := arcLine{box: [4]int32{math.MaxInt32, math.MaxInt32, math.MinInt32, math.MinInt32}}
		if net.TimeMS != nil {
			al.timeMS = net.TimeMS[a]
		}
		if net.LengthM != nil {
			al.lengthM = net.LengthM[a]
		}
		if len(geo.Offsets) != 0 {
			x, y := geo.Points(a)
			al.first, al.points = geo.Offsets[a], int32(len(x))
			for i := range x {
				al.box[0], al.box[1] = min(al.box[0], x[i]), min(al.box[1], y[i])
				al.box[2], al.box[3] = max(al.box[2], x[i]), max(al.box[3], y[i])
			}
		}
		l.arcs[a] = al
	}
	return l
}

// coords returns the encoded intermediate points of the arc.
func (l *lineCoords) coords(al *arcLine) []byte {
	return l.points[al.first*pointBytes : (al.first+int64(al.points))*pointBytes]
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
	xmin, ymin, xmax, ymax := int32(math.MaxInt32), int32(math.MaxInt32), int32(math.MinInt32), int32(math.MinInt32)
	at := 0
	for i, v := range vertices {
		if i > 0 {
			if al := &l.arcs[arcs[i-1]]; al.points > 0 {
				at += copy(coords[at:], l.coords(al))
				b := &al.box
				xmin, ymin, xmax, ymax = min(xmin, b[0]), min(ymin, b[1]), max(xmax, b[2]), max(ymax, b[3])
			}
		}
		// A vertex is one point: an array assignment, where copy would
		// call memmove for 16 bytes (WriteLine on 100,000 Delaware
		// routes: 0.61-0.75 cpu-s with copy, 0.51-0.60 without).
		p := &l.vertices[v]
		*(*[pointBytes]byte)(coords[at:]) = p.coords
		at += pointBytes
		xmin, ymin, xmax, ymax = min(xmin, p.x), min(ymin, p.y), max(xmax, p.x), max(ymax, p.y)
	}
	if at != len(coords) {
		return box, fmt.Errorf("routes: a route of %d points written into room for %d", at/pointBytes, len(coords)/pointBytes)
	}
	if len(vertices) > 0 {
		box = geoparquet.Box{
			XMin: float64(xmin) / graph.UnitsPerDegree, YMin: float64(ymin) / graph.UnitsPerDegree,
			XMax: float64(xmax) / graph.UnitsPerDegree, YMax: float64(ymax) / graph.UnitsPerDegree,
		}
	}
	return box, nil
}
