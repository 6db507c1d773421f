package ingest

import (
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
// name and its values in the arcs' order, so that runs reporting it
// (compute.metrics) answer from the stored hierarchy: the metric of
// input.metric.file when one is given, else a road network's other
// metric (time or length, whichever is not the weight). "" and nil for an
// input with neither.
func hierarchyMetric(g *input.LoadedGraph) (string, []int32) {
	if m := g.MetricFile; m != nil {
		return m.Name, m.Values
	}
	return roadOtherMetric(g)
}
