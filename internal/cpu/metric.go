package cpu

import (
	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/internal/shortest"
)

// A request that asks for the Metric column runs on the graph's metric
// keys (graph.MetricKeys): Dijkstra's searches and the hierarchy's queries
// read keys instead of weights, so every row holds key sums over the paths
// shortest by (weight, metric), and splitKeys takes each block apart into
// distances and metrics before the consumer sees it. The other algorithms
// refuse such a request.

// keyedSearches returns the searches of alg (Dijkstra or Bellman-Ford:
// Run refuses the others, and ch runs its own way, see runCH) for a
// metric request and the bound that proves their rows, with the cutoff
// maxDistance as Run describes it.
func keyedSearches(g *graph.CSR, alg string, maxDistance int64) (searchSet, graph.KeyBound, error) {
	if g.Metric == nil {
		return searchSet{}, graph.KeyBound{}, unsupported("a metric was asked for and the graph carries none")
	}
	limit := noLimit
	if maxDistance >= 0 {
		limit = maxDistance
	}
	if alg == backend.AlgorithmBellmanFord {
		full, bound, err := shortest.KeyedBellmanFord(g, limit)
		if err != nil {
			return searchSet{}, graph.KeyBound{}, err
		}
		return gathered(g, full), bound, nil
	}
	if err := shortest.CheckDijkstraInput(g); err != nil {
		return searchSet{}, graph.KeyBound{}, err
	}
	k, err := shortest.NewKeyedDijkstra(g, limit)
	if err != nil {
		return searchSet{}, graph.KeyBound{}, err
	}
	return searchSet{full: k.Full, targeted: k.Targeted, cells: k.Cells}, k.Bound, nil
}

// splitKeys returns a sink that splits each block's key sums into its
// distance and metric columns (results.SplitKeys) and hands it to sink.
func splitKeys(sink results.Sink, bound graph.KeyBound) results.Sink {
	return func(rows *results.Rows) error {
		if err := results.SplitKeys(rows, bound); err != nil {
			rows.Release()
			return err
		}
		return sink(rows)
	}
}
