package cpu

import (
	"context"
	"fmt"
	"time"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/hierarchy"
	"github.com/pathflow/pathflow/internal/results"
)

// chKeys is what a ch run that reports a metric adds: the hierarchy keyed
// (hierarchy.WithMetricKeys), whose rows hold key sums, and the bound
// that proves them. A keyed query fails with hierarchy.ErrKeyRange rather
// than report a path too long for a key as none, so its unreachable cells
// need no second look.
type chKeys struct {
	keyed *hierarchy.Hierarchy
	bound graph.KeyBound
}

// newChKeys prepares a metric request on g: the request's hierarchy when
// it carries the metric, else one built here (reported as a fact).
func newChKeys(ctx context.Context, req *backend.Request, g *graph.CSR, h *hierarchy.Hierarchy, workers int) (*chKeys, error) {
	if g.Metric == nil {
		return nil, unsupported("a metric was asked for and the graph carries none")
	}
	bound, err := graph.MetricBound(g.Weights, g.Metric)
	if err != nil {
		return nil, fmt.Errorf("cpu: ch: %w", err)
	}
	if !h.HasMetric() {
		// A hierarchy built for the weight alone may have dropped the
		// shortcuts of paths that tie on it: build one for the pairs.
		began := time.Now()
		if h, err = hierarchy.Build(ctx, g, hierarchy.WithWorkers(workers)); err != nil {
			return nil, fmt.Errorf("cpu: ch: %w", err)
		}
		req.ReportFact(hierarchy.FactKey, h.Facts(time.Since(began).Seconds()))
	}
	keyed, err := h.WithMetricKeys()
	if err != nil {
		return nil, fmt.Errorf("cpu: ch: %w", err)
	}
	return &chKeys{keyed: keyed, bound: bound}, nil
}

// split splits the block's key sums into distances and metrics
// (results.SplitKeys). O(cells).
func (k *chKeys) split(rows *results.Rows) error {
	if err := results.SplitKeys(rows, k.bound); err != nil {
		return fmt.Errorf("cpu: ch: %w", err)
	}
	return nil
}
