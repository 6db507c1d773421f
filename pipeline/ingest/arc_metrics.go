package ingest

import (
	"sync"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/tables"
	"github.com/pathflow/pathflow/pipeline/input"
)

// arcColumns returns the edges table's columns beyond src, dst and
// weight: a road network's (roadColumns), and the metric of a second
// file of the network (input.metric.file), so that compute reports it
// from the tables (compute.metrics).
func arcColumns(g *input.LoadedGraph) []tables.ArcColumn {
	cols := roadColumns(g)
	if g.MetricFile != nil {
		cols = append(cols, g.MetricFile.Column())
	}
	return cols
}

// hierarchyMetric returns the metric the stored hierarchy carries, its
// name, its unit and its values in the arcs' order, so that runs
// reporting it (compute.metrics) answer from the stored hierarchy: the
// metric of input.metric.file when one is given, else a road network's
// other metric (time or length, whichever is not the weight). "", "" and
// nil for an input with neither.
func hierarchyMetric(g *input.LoadedGraph) (name, unit string, values []int32) {
	if m := g.MetricFile; m != nil {
		return m.Name, m.Unit, m.Values
	}
	return roadOtherMetric(g)
}

// storedRows are the rows the stored files (the hierarchy, the reload
// file) are made of: g's, with the stored metric (hierarchyMetric) beside
// the weights, named with its unit; "" where the input has none. Both
// files carry the metric, so that a run reporting it needs neither the
// tables nor a hierarchy of its own.
type storedRows struct {
	csr          *graph.CSR
	metric, unit string
}

// storedRowsOf returns what makes g's storedRows on the first call and
// gives the same to every later one, so the files share one ordering of
// the metric. O(n + m) once, for the metric's order.
func storedRowsOf(g *input.LoadedGraph) func() storedRows {
	return sync.OnceValue(func() storedRows {
		rows := g.Rows()
		name, unit, values := hierarchyMetric(g)
		if name == "" {
			return storedRows{csr: rows}
		}
		withMetric := *rows
		withMetric.Metric = graph.CSROrder(g.Edges, values)
		return storedRows{csr: &withMetric, metric: name, unit: unit}
	})
}
