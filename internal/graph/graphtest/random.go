package graphtest

import (
	"math/rand/v2"

	"github.com/pathflow/pathflow/internal/graph"
)

// RandomGraph returns a directed graph of n vertices and m random arcs
// (self-loops and parallel arcs allowed) with weights in [lo, hi]. When
// shift > 0 every vertex gets a random potential p(v) in [0, shift] and arc
// u -> v the weight w + p(u) - p(v): weights can turn negative, but every
// cycle keeps its non-negative weight, so there is no negative cycle
// (lo >= 0 required then). Vertices no arc touches stay isolated.
func RandomGraph(r *rand.Rand, n int32, m int, lo, hi, shift int32) *graph.EdgeList {
	e := graph.NewEdgeList(n, m)
	if n == 0 {
		return e
	}
	pot := make([]int32, n)
	if shift > 0 {
		for v := range pot {
			pot[v] = r.Int32N(shift + 1)
		}
	}
	for range m {
		u, v := r.Int32N(n), r.Int32N(n)
		w := lo + int32(r.Int64N(int64(hi)-int64(lo)+1))
		e.Add(u, v, w+pot[u]-pot[v])
	}
	return e
}

// LineGraph is the path 0 -> 1 -> ... -> n-1 with every arc of weight w.
func LineGraph(n int32, w int32) *graph.EdgeList {
	e := graph.NewEdgeList(n, int(n))
	for v := int32(0); v+1 < n; v++ {
		e.Add(v, v+1, w)
	}
	return e
}

// WithMetric gives every arc of e a metric drawn uniformly from lo..hi
// (inclusive) and returns e.
func WithMetric(r *rand.Rand, e *graph.EdgeList, lo, hi int32) *graph.EdgeList {
	e.Metric = make([]int32, e.M())
	for i := range e.Metric {
		e.Metric[i] = lo + r.Int32N(hi-lo+1)
	}
	return e
}
