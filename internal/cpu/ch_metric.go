package cpu

import (
	"context"
	"fmt"
	"time"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/hierarchy"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/results"
)

// chKeys is what a ch run that reports a metric adds: the hierarchy keyed
// (hierarchy.WithMetricKeys), whose rows hold key sums, the plain one that
// confirms the cells a keyed query finds unreachable, and the bound that
// proves the rest.
type chKeys struct {
	keyed, plain *hierarchy.Hierarchy
	bound        graph.KeyBound
	// sure says that no shortest path is too long for a key
	// (graph.CSR.SimplePathBound), so an unreachable cell needs no
	// confirmation.
	sure bool
}

// newChKeys prepares a metric request on g: the request's hierarchy when
// it carries the metric, else one built here (reported as a fact).
func newChKeys(ctx context.Context, req *backend.Request, g *graph.CSR, h *hierarchy.Hierarchy, workers int) (*chKeys, error) {
	if g.Metric == nil {
		return nil, unsupported("a metric was asked for and the graph carries none")
	}
	_, bound, err := graph.MetricKeys(g.Weights, g.Metric)
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
	return &chKeys{keyed: keyed, plain: h, bound: bound, sure: g.SimplePathBound() <= graph.MaxKeyedDistance}, nil
}

// split confirms the block's unreachable cells and splits its key sums
// into distances and metrics (results.SplitKeys). A keyed query reads a
// path past graph.MaxKeyedDistance as none; where such a path may exist,
// each unreachable cell is asked again of the plain hierarchy, and one it
// reaches fails the run rather than be reported unreachable. O(cells),
// plus a point query per unreachable cell when not sure.
func (k *chKeys) split(req *backend.Request, rows *results.Rows) error {
	if !k.sure {
		var q *hierarchy.Query
		for i, s := range rows.Sources {
			lo, hi := rows.Span(i)
			targets := req.RowTargets(rows.First + i)
			for c := lo; c < hi; c++ {
				if rows.Dist64[c] != paths.Unreachable {
					continue
				}
				if q == nil {
					q = hierarchy.NewQuery(k.plain)
				}
				t := int32(c - lo)
				if targets != nil {
					t = targets[c-lo]
				}
				d, err := q.Distance(s, t)
				if err != nil {
					return fmt.Errorf("cpu: ch: %w", err)
				}
				if d != paths.Unreachable {
					return fmt.Errorf("cpu: ch: a path from %d weighs %d; a search that reports a metric handles path weights up to %d", s, d, graph.MaxKeyedDistance)
				}
			}
		}
	}
	if err := results.SplitKeys(rows, k.bound); err != nil {
		return fmt.Errorf("cpu: ch: %w", err)
	}
	return nil
}
