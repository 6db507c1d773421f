package hierarchy

import (
	"errors"
	"fmt"

	"github.com/pathflow/pathflow/internal/graph"
)

// metricKeys are a hierarchy's arc keys (graph.Key of each arc's weight
// and metric), in the order of Up and Down; one array serves both when
// they share their arcs.
type metricKeys struct {
	up, down []int64
}

// HasMetric reports whether h was built from a graph with a metric, so
// that its arcs carry one (UpMetric, DownMetric).
func (h *Hierarchy) HasMetric() bool { return h.UpMetric != nil }

// Keyed reports whether h's queries answer in key sums (WithMetricKeys).
func (h *Hierarchy) Keyed() bool { return h.keys != nil }

// WithMetricKeys returns a hierarchy that shares h's arcs and whose
// queries (Table, Buckets, Trees, TreeSweep, Query, UpwardSearches)
// answer in key sums instead of distances: graph.Key(weight, metric)
// summed over the path that is shortest by (weight, metric), which
// graph.SplitKey takes apart and graph.KeyBound.Check proves exact. A
// query that meets a path too long for a key (about graph.MaxKeyedDistance
// or more) fails with ErrKeyRange rather than report it as no path, so an
// unreachable cell is unreachable. h must have a metric (HasMetric).
// O(arcs).
func (h *Hierarchy) WithMetricKeys() (*Hierarchy, error) {
	if !h.HasMetric() {
		return nil, errors.New("hierarchy: the hierarchy carries no metric; build it from a graph with one (graph.CSR.Metric)")
	}
	up, err := arcKeys(h.Up.Weights, h.UpMetric)
	if err != nil {
		return nil, err
	}
	keys := &metricKeys{up: up, down: up}
	if !sharesArcs(h) {
		if keys.down, err = arcKeys(h.Down.Weights, h.DownMetric); err != nil {
			return nil, err
		}
	}
	return &Hierarchy{N: h.N, Rank: h.Rank, Order: h.Order, Up: h.Up, UpMiddle: h.UpMiddle, Down: h.Down,
		DownMiddle: h.DownMiddle, UpMetric: h.UpMetric, DownMetric: h.DownMetric, Metric: h.Metric, GraphChecksum: h.GraphChecksum,
		Rounds: h.Rounds, keys: keys}, nil
}

// sharesArcs reports whether h's Up and Down rows are the same arrays (a
// symmetric graph's hierarchy).
func sharesArcs(h *Hierarchy) bool {
	return len(h.Up.Weights) > 0 && len(h.Down.Weights) == len(h.Up.Weights) && &h.Up.Weights[0] == &h.Down.Weights[0]
}

// arcWeight is the weight type a query reads: the hierarchy's int32
// weights, or its int64 keys.
type arcWeight interface{ ~int32 | ~int64 }

// arcView is one direction of the hierarchy's arcs as a query reads them.
type arcView[W arcWeight] struct {
	offsets []int64
	targets []int32
	weights []W
}

// weightView is c with its own weights.
func weightView(c *graph.CSR) arcView[int32] {
	return arcView[int32]{offsets: c.Offsets, targets: c.Targets, weights: c.Weights}
}

// keyView is c with keys for weights.
func keyView(c *graph.CSR, keys []int64) arcView[int64] {
	return arcView[int64]{offsets: c.Offsets, targets: c.Targets, weights: keys}
}

// ErrKeyRange is the error of a query on metric keys (WithMetricKeys) that
// met a path too long for a key: weighing graph.MaxKeyedDistance or more,
// which it would otherwise have reported as no path.
var ErrKeyRange = fmt.Errorf("hierarchy: a path weighs %d or more, past what a search that reports a metric holds", graph.MaxKeyedDistance+1)

// checkKeys returns ErrKeyRange when a search met a path that reached
// infinity (overflow); paths of int32 weights never do. O(1).
func checkKeys(overflow bool) error {
	if overflow {
		return ErrKeyRange
	}
	return nil
}

// arcKeys returns the keys of a hierarchy's arcs: graph.Key, or
// graph.OverlongKey for a shortcut heavier than graph.MaxKeyedWeight (the
// graph's own arcs were checked by graph.MetricKeys; a shortcut sums
// several). O(arcs).
func arcKeys(weights, metric []int32) ([]int64, error) {
	if len(weights) != len(metric) {
		return nil, fmt.Errorf("hierarchy: %d arcs and %d metric values", len(weights), len(metric))
	}
	keys := make([]int64, len(weights))
	for a, w := range weights {
		switch m := metric[a]; {
		case w < 0 || m < 0:
			return nil, fmt.Errorf("hierarchy: arc %d has weight %d and metric %d; both must be >= 0", a, w, m)
		case w > graph.MaxKeyedWeight:
			keys[a] = graph.OverlongKey
		default:
			keys[a] = graph.Key(w, m)
		}
	}
	return keys, nil
}
