package places

import (
	"math"

	"github.com/pathflow/pathflow/internal/snap"
)

// piece is the part of a place's stretch of road that a trip drives
// before it reaches the graph, after it leaves it, or instead of it:
// metres of arc, whose stretch is stretch metres long. Its share of any
// value of the arc (weight, time, length, a metric) is the piece's part
// of the stretch, as snapping shares out the weight into the seeds.
type piece struct {
	arc             int32
	metres, stretch float64
}

// share is the piece's part of values[arc], rounded to the nearest
// integer as the seeds' weights are (snap.Seed.Weight); 0 on a stretch
// of length zero.
func (pc piece) share(values []int32) int64 {
	if pc.stretch <= 0 {
		return 0
	}
	return int64(math.Round(float64(values[pc.arc]) * pc.metres / pc.stretch))
}

// leavingPiece is the piece from p's position to the vertex of its seed
// p.Out[from]: toward Arc's head for Out[0], back to its tail along the
// twin for Out[1]. A place on a vertex leaves from it at once: a piece
// of no metres.
func leavingPiece(p *snap.Place, from int) piece {
	if onVertex(p) {
		return piece{arc: p.Arc}
	}
	stretch := p.StretchLengthM()
	if from == 1 {
		return piece{arc: p.Twin(), metres: p.AlongM, stretch: stretch}
	}
	return piece{arc: p.Arc, metres: stretch - p.AlongM, stretch: stretch}
}

// enteringPiece is the piece from the vertex of q's seed q.In[to] to q's
// position: from Arc's tail for In[0], from its head along the twin for
// In[1]. A place on a vertex is reached at it: a piece of no metres.
func enteringPiece(q *snap.Place, to int) piece {
	if onVertex(q) {
		return piece{arc: q.Arc}
	}
	stretch := q.StretchLengthM()
	if to == 1 {
		return piece{arc: q.Twin(), metres: stretch - q.AlongM, stretch: stretch}
	}
	return piece{arc: q.Arc, metres: q.AlongM, stretch: stretch}
}

// directPiece is the piece between p's and q's positions on the stretch
// both lie on (snap.Direct answers), in the direction snap.Direct weighs:
// along Arc where q lies at or after p, along the twin otherwise. qAlong
// is q's position measured along p's Arc.
func directPiece(p, q *snap.Place) (pc piece, qAlong float64) {
	stretch := p.StretchLengthM()
	qAlong = q.AlongM
	if q.Arc != p.Arc { // measured along the twin: from the other end
		qAlong = stretch - q.AlongM
	}
	if qAlong < p.AlongM {
		return piece{arc: p.Twin(), metres: p.AlongM - qAlong, stretch: stretch}, qAlong
	}
	return piece{arc: p.Arc, metres: qAlong - p.AlongM, stretch: stretch}, qAlong
}

// onVertex reports whether a place lies on a vertex, where snapping
// gives it that one vertex as its only seed both ways, of weight 0
// (snap.Place.Out).
func onVertex(p *snap.Place) bool {
	return len(p.Out) == 1 && len(p.In) == 1 && p.Out[0] == p.In[0] && p.Out[0].Weight == 0 &&
		(p.AlongM == 0 || p.AlongM == p.StretchLengthM())
}

// seedMetrics are the metric of every seed of a place, in the order of
// its Out and In seeds: the shares of the arcs' metric that the seeds'
// pieces make.
type seedMetrics struct {
	out, in []int64
}

// metricsOf returns the seeds' metrics of p, given every arc's metric.
func metricsOf(p *snap.Place, arcMetric []int32) seedMetrics {
	m := seedMetrics{out: make([]int64, len(p.Out)), in: make([]int64, len(p.In))}
	for k := range p.Out {
		m.out[k] = leavingPiece(p, k).share(arcMetric)
	}
	for k := range p.In {
		m.in[k] = enteringPiece(p, k).share(arcMetric)
	}
	return m
}

// directMetric is the metric of the trip from p to q along the stretch
// both lie on, where snap.Direct answers one.
func directMetric(p, q *snap.Place, arcMetric []int32) int64 {
	pc, _ := directPiece(p, q)
	return pc.share(arcMetric)
}

// lighter reports whether the trip of weight w and metric m beats the
// best so far (bestW, bestM; bestW NoPath for none): the pairs compared
// lexicographically, weight first. A tie on both keeps the best so far,
// so the first of equal trips wins, as it does on weights alone.
func lighter(w, m, bestW, bestM int64) bool {
	return bestW == NoPath || w < bestW || (w == bestW && m < bestM)
}
