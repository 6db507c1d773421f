package shortest

import (
	"errors"
	"math"

	"github.com/pathflow/pathflow/internal/graph"
)

// KeyedDijkstra is Dijkstra on a graph's metric keys (graph.MetricKeys):
// its searches find, for each vertex, the key sum of the path shortest by
// (weight, metric), with the parent rule on keys (the smallest
// in-neighbour whose key sum plus the arc's key is the vertex's). Rows
// hold key sums until results.SplitKeys takes them apart.
type KeyedDijkstra struct {
	// Full, Targeted and Cells make one search per worker: whole rows,
	// rows narrowed to targets, and sparse rows within the cutoff.
	Full     func() RowSearch
	Targeted func(withParents bool) TargetSearch
	Cells    func(withParents bool) CellSearch
	// Bound proves the key sums exact (graph.KeyBound.Check).
	Bound graph.KeyBound
}

// NewKeyedDijkstra returns the searches of a checked g with a metric
// (g.Metric) for the cutoff limit (a weight; math.MaxInt64 for none): a
// search stops once the next vertex's weight lies beyond it. O(m) for the
// keys.
func NewKeyedDijkstra(g *graph.CSR, limit int64) (*KeyedDijkstra, error) {
	if g.Metric == nil {
		return nil, errors.New("cpu: dijkstra: the graph carries no metric")
	}
	keys, bound, err := graph.MetricKeys(g.Weights, g.Metric)
	if err != nil {
		return nil, err
	}
	positive := true
	for _, k := range keys {
		positive = positive && k > 0
	}
	keyLimit := int64(math.MaxInt64)
	if limit < graph.MaxKeyedDistance {
		// The largest key of weight limit: every metric under it.
		keyLimit = graph.Key(int32(limit), 0) | (1<<32 - 1)
	}
	return &KeyedDijkstra{
		Full:     dijkstraSearchesOn(g, keys, positive, keyLimit),
		Targeted: dijkstraTargetSearchesOn(g, keys, positive, keyLimit),
		Cells:    dijkstraCellSearchesOn(g, keys, positive, keyLimit),
		Bound:    bound,
	}, nil
}
