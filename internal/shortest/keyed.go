package shortest

import (
	"errors"
	"math"

	"github.com/pathflow/pathflow/internal/graph"
)

// KeyedBellmanFord returns Bellman-Ford's row searches on the metric keys
// of a checked g with a metric, for the cutoff limit (a weight), and the
// bound that proves their rows: as KeyedDijkstra, the key sums of the
// paths shortest by (weight, metric). Keys are never negative, so the
// cutoff is exact. O(m) for the keys.
func KeyedBellmanFord(g *graph.CSR, limit int64) (func() RowSearch, graph.KeyBound, error) {
	if g.Metric == nil {
		return nil, graph.KeyBound{}, errors.New("cpu: bellman-ford: the graph carries no metric")
	}
	keys, bound, err := graph.MetricKeys(g.Weights, g.Metric)
	if err != nil {
		return nil, graph.KeyBound{}, err
	}
	return bellmanFordSearchesOn(g, keys, keyLimit(limit)), bound, nil
}

// keyLimit is the largest key sum of weight limit (math.MaxInt64 for none
// or one too heavy for a key): every metric under it.
func keyLimit(limit int64) int64 {
	if limit >= graph.MaxKeyedDistance {
		return math.MaxInt64
	}
	return graph.Key(int32(limit), 0) | (1<<32 - 1)
}

// KeyedDijkstra is Dijkstra on a graph's metric keys (graph.MetricKeys):
// its searches find, for each vertex, the key sum of the path shortest by
// (weight, metric), with Dijkstra's parent rule on keys (the smallest
// in-neighbour whose key sum plus the arc's key is the vertex's, where
// every key is above zero; the first to arrive otherwise). Rows hold key
// sums until results.SplitKeys takes them apart.
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
	return &KeyedDijkstra{
		Full:     dijkstraSearchesOn(g, keys, positive, keyLimit(limit)),
		Targeted: dijkstraTargetSearchesOn(g, keys, positive, keyLimit(limit)),
		Cells:    dijkstraCellSearchesOn(g, keys, positive, keyLimit(limit)),
		Bound:    bound,
	}, nil
}
