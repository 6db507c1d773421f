package routes

import (
	"math"
	"slices"

	"github.com/pathflow/pathflow/internal/earth"
	"github.com/pathflow/pathflow/internal/graph"
)

// PiecePoints appends to lon and lat, in degrees, the points of arc a
// that lie strictly between fromM and toM metres from its tail, in
// travel order: toward the head when fromM < toM, toward the tail
// otherwise. The arc is the polyline from its tail through its
// intermediate points to its head, measured point to point on the
// sphere (earth.Distance) as snapping measures a place's position along
// it (snap.Place.AlongM), so that a route cut at a snapped place turns
// there. The ends of the piece are the caller's: a place's position, or
// a vertex the vertex path adds. O(points of a).
func (ix *Index) PiecePoints(lon, lat []float64, a int32, fromM, toM float64) ([]float64, []float64) {
	lo, hi := min(fromM, toM), max(fromM, toM)
	start := len(lon)
	vs, e := ix.net.Vertices, ix.net.Edges
	along := 0.0
	prevLon, prevLat := degrees(vs.X[e.Src[a]]), degrees(vs.Y[e.Src[a]])
	visit := func(x, y int32) {
		pLon, pLat := degrees(x), degrees(y)
		along += earth.Distance(prevLon, prevLat, pLon, pLat)
		prevLon, prevLat = pLon, pLat
		if along > lo && along < hi {
			lon, lat = append(lon, pLon), append(lat, pLat)
		}
	}
	if len(ix.net.Geometry.Offsets) != 0 {
		xs, ys := ix.net.Geometry.Points(int(a))
		for k := range xs {
			visit(xs[k], ys[k])
		}
	}
	if fromM > toM {
		slices.Reverse(lon[start:])
		slices.Reverse(lat[start:])
	}
	return lon, lat
}

// PieceTotals returns the travel time (ms) and length (m) of a piece of
// pieceM metres of arc a, whose stretch of road is stretchM long: the
// arc's time and length shared out by the piece's part of the stretch,
// rounded to the nearest integer, as snapping shares out an arc's weight
// into a place's seeds. A route's partial arcs thus add to its time what
// the seeds add to its distance, where the weight is the travel time. 0
// for a metric the network lacks, and on a stretch of length zero. O(1).
func (ix *Index) PieceTotals(a int32, pieceM, stretchM float64) (timeMS, lengthM int64) {
	if t := ix.net.TimeMS; t != nil {
		timeMS = share(t[a], pieceM, stretchM)
	}
	if l := ix.net.LengthM; l != nil {
		lengthM = share(l[a], pieceM, stretchM)
	}
	return timeMS, lengthM
}

// share is the part pieceM/stretchM of w, rounded to the nearest integer;
// 0 when stretchM is not positive. The rounding is the seeds' (snap).
func share(w int32, pieceM, stretchM float64) int64 {
	if stretchM <= 0 {
		return 0
	}
	return int64(math.Round(float64(w) * pieceM / stretchM))
}

// degrees converts a coordinate the network keeps in units of
// 1/graph.UnitsPerDegree degree, as snapping does.
func degrees(units int32) float64 { return float64(units) / graph.UnitsPerDegree }
