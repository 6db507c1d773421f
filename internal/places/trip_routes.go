package places

import (
	"fmt"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/internal/routes"
	"github.com/pathflow/pathflow/internal/snap"
)

// TripRoute is the route of one trip between places: the seed pair whose
// sum is the trip's distance, chosen as the combiners choose it, and the
// vertex path between the two seeds. Its zero value is not a route: start
// from NewTripRoute.
type TripRoute struct {
	// Weight is the trip's distance, NoPath where there is none.
	Weight int64
	// From indexes the origin's Out seeds, To the destination's In seeds:
	// the route leaves the origin's stretch of road by From and reaches
	// the destination's by To. Both are -1 for a trip that stays on the
	// stretch both places lie on (snap.Direct), and where there is none.
	From, To int
	// Vertices is the path from Out[From]'s vertex to In[To]'s, both
	// included; nil for a trip along one stretch.
	Vertices []int32
}

// NewTripRoute returns the route of a trip not answered yet: no weight.
func NewTripRoute() TripRoute { return TripRoute{Weight: NoPath, From: -1, To: -1} }

// Offer weighs the routes that leave the origin p by its seed p.Out[from]
// against the route chosen so far, dist being that seed's distances to
// every vertex (a whole row of its search). It reports whether one of
// them became the route; the caller then reads its path (Vertices) from
// the seed's vertex to q.In[To]'s. The seed pairs win as the combiners'
// minimum picks them: the lightest, and of equal weights the first in
// the order Out seed, then In seed, whatever order the rows come in.
// Offer every Out seed of a searched trip, then Finish. O(len(q.In)).
func (r *TripRoute) Offer(p, q *snap.Place, from int, dist results.Distances) bool {
	s := p.Out[from]
	best, to := NoPath, -1
	for k, t := range q.In {
		if d, ok := dist.At(int(t.Vertex)); ok {
			if w := s.Weight + d + t.Weight; best == NoPath || w < best {
				best, to = w, k
			}
		}
	}
	if to < 0 || (r.Weight != NoPath && (best > r.Weight || (best == r.Weight && from > r.From))) {
		return false
	}
	r.Weight, r.From, r.To, r.Vertices = best, from, to, nil
	return true
}

// Finish takes the trip along the stretch both places lie on instead
// where it is lighter than every seed pair, as the combiners do; call it
// once every Out seed has been offered. O(1).
func (r *TripRoute) Finish(p, q *snap.Place) {
	if !p.OK || !q.OK {
		*r = NewTripRoute()
		return
	}
	if w, ok := snap.Direct(p, q); ok && (r.Weight == NoPath || w < r.Weight) {
		*r = TripRoute{Weight: w, From: -1, To: -1}
	}
}

// RouteLine is the scratch space of the lines of trips' routes; one
// goroutine's.
type RouteLine struct {
	ix       *routes.Index
	arcs     []int32
	x, y     []int32
	Lon, Lat []float64
}

// NewRouteLine returns the scratch space of routes over ix.
func NewRouteLine(ix *routes.Index) *RouteLine { return &RouteLine{ix: ix} }

// Trace lays out route r of the trip from p to q: its line into Lon and
// Lat, in degrees, and its travel time (ms) and length (m). The line
// starts at p's snapped position, follows the rest of p's stretch of
// road to the vertex the route leaves it by, then the vertex path with
// every arc's intermediate points, then q's stretch from the vertex the
// route enters it by to q's snapped position; a trip along one stretch
// follows it between the two positions. The partial arcs' time and
// length are their shares of the arcs' (routes.Index.PieceTotals), so
// that, where the weight is the travel time, the time is r.Weight. r
// must be a route (Weight not NoPath). O(points).
func (l *RouteLine) Trace(r *TripRoute, p, q *snap.Place) (timeMS, lengthM int64, err error) {
	l.Lon, l.Lat = append(l.Lon[:0], p.Lon), append(l.Lat[:0], p.Lat)
	if r.From < 0 {
		timeMS, lengthM = l.direct(p, q)
		l.add(q.Lon, q.Lat)
		return timeMS, lengthM, nil
	}
	t, m := l.leave(p, r.From)
	timeMS, lengthM = timeMS+t, lengthM+m
	var ok bool
	if l.arcs, ok = l.ix.Arcs(l.arcs[:0], r.Vertices); !ok {
		return 0, 0, fmt.Errorf("places: the route from %d to %d steps between vertices no arc joins", r.Vertices[0], r.Vertices[len(r.Vertices)-1])
	}
	t, m = l.ix.Totals(l.arcs)
	timeMS, lengthM = timeMS+t, lengthM+m
	l.x, l.y = l.ix.Points(l.x[:0], l.y[:0], r.Vertices, l.arcs)
	for k := range l.x {
		l.add(float64(l.x[k])/graph.UnitsPerDegree, float64(l.y[k])/graph.UnitsPerDegree)
	}
	t, m = l.enter(q, r.To)
	timeMS, lengthM = timeMS+t, lengthM+m
	l.add(q.Lon, q.Lat)
	return timeMS, lengthM, nil
}

// add appends a point unless it repeats the last: a place on a vertex
// is that vertex's position, where the route's pieces meet.
func (l *RouteLine) add(lon, lat float64) {
	if n := len(l.Lon); n > 0 && l.Lon[n-1] == lon && l.Lat[n-1] == lat {
		return
	}
	l.Lon, l.Lat = append(l.Lon, lon), append(l.Lat, lat)
}

// leave appends the intermediate points from p's position to the vertex
// of p.Out[from] and returns that piece's time and length
// (leavingPiece). A place on a vertex leaves from it at once.
func (l *RouteLine) leave(p *snap.Place, from int) (timeMS, lengthM int64) {
	if onVertex(p) {
		return 0, 0
	}
	to := p.StretchLengthM()
	if from == 1 {
		to = 0
	}
	l.Lon, l.Lat = l.ix.PiecePoints(l.Lon, l.Lat, p.Arc, p.AlongM, to)
	pc := leavingPiece(p, from)
	return l.ix.PieceTotals(pc.arc, pc.metres, pc.stretch)
}

// enter appends the intermediate points from the vertex of q.In[to] to
// q's position and returns that piece's time and length
// (enteringPiece). The vertex itself is the vertex path's last point.
func (l *RouteLine) enter(q *snap.Place, to int) (timeMS, lengthM int64) {
	if onVertex(q) {
		return 0, 0
	}
	from := 0.0
	if to == 1 {
		from = q.StretchLengthM()
	}
	l.Lon, l.Lat = l.ix.PiecePoints(l.Lon, l.Lat, q.Arc, from, q.AlongM)
	pc := enteringPiece(q, to)
	return l.ix.PieceTotals(pc.arc, pc.metres, pc.stretch)
}

// direct appends the intermediate points between p's and q's positions
// on the stretch both lie on, in the direction snap.Direct weighs, and
// returns the piece's time and length (directPiece).
func (l *RouteLine) direct(p, q *snap.Place) (timeMS, lengthM int64) {
	pc, qAlong := directPiece(p, q)
	l.Lon, l.Lat = l.ix.PiecePoints(l.Lon, l.Lat, p.Arc, p.AlongM, qAlong)
	return l.ix.PieceTotals(pc.arc, pc.metres, pc.stretch)
}
