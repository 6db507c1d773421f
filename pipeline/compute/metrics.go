package compute

import (
	"context"
	"fmt"
	"io"
	"log/slog"

	"github.com/pathflow/pathflow/formats"
	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/internal/hierarchy"
	"github.com/pathflow/pathflow/internal/resultfiles"
	"github.com/pathflow/pathflow/internal/tables"
	"github.com/pathflow/pathflow/pipeline/ingest"
	"github.com/pathflow/pathflow/pipeline/input"
	"github.com/pathflow/pathflow/pipeline/stageerr"
)

// roadMetric is a metric every road network carries: its name in
// compute.metrics, its column in the edges table and its unit.
type roadMetric struct {
	name, column, unit string
}

// roadMetricsByName are the road networks' metrics: travel time and
// length, one of which is the weight.
var roadMetricsByName = map[string]roadMetric{
	"time":   {name: "time", column: ingest.ColTimeMS, unit: resultfiles.UnitTime},
	"length": {name: "length", column: ingest.ColLengthM, unit: resultfiles.UnitLength},
}

// loadMetric finds the values of the metric name on every arc of g, in
// the order of g.Edges, and sets them as g.Edges.Metric, so that the
// graph's rows (input.LoadedGraph.Rows) carry them. The metric of a
// second file of a DIMACS network (input.metric.file) comes as it was
// read; a road network's "time" and "length" come from its OpenStreetMap
// reader or its edges table; any other name is an int32 column of the
// edges table of an ingest output (read from its tables: the run asks for
// input.TablesAlways). It returns the column the results write.
func loadMetric(g *input.LoadedGraph, name string) (resultfiles.MetricColumn, error) {
	if g.ArcMetric == name { // a reload file's, already in the arcs' order
		return resultfiles.MetricColumn{Name: name, Unit: g.ArcMetricUnit}, nil
	}
	if m := g.MetricFile; m != nil && m.Name == name {
		g.Edges.Metric = m.Values
		return resultfiles.MetricColumn{Name: name, Unit: m.Unit}, nil
	}
	road, isRoad := roadMetricsByName[name]
	// Only a road network's tables hold time and length under their road
	// column names; another input's column may be named "length" itself.
	isRoad = isRoad && (g.Road != nil || g.Format == string(formats.KindOSM))
	if isRoad && g.Road != nil {
		if g.Road.Weight == name {
			return resultfiles.MetricColumn{}, isWeight(name)
		}
		values := g.Road.TimeMS
		if name == "length" {
			values = g.Road.LengthM
		}
		g.Edges.Metric = values
		return resultfiles.MetricColumn{Name: name, Unit: road.unit}, nil
	}
	if g.Folder == "" || g.CSR != nil {
		return resultfiles.MetricColumn{}, config.Errorf(KeyMetrics, "%q: the input carries no metric beside its weight (a road network has time and length; an ingest output, the int32 columns of its edges table; a DIMACS file, the one %s names with %s)", name, input.KeyInputMetricFile, input.KeyInputMetricName)
	}
	column := name
	if isRoad {
		if g.WeightUnit == road.unit {
			return resultfiles.MetricColumn{}, isWeight(name)
		}
		column = road.column
	}
	col, found, err := edgesColumn(g, column)
	if err != nil {
		return resultfiles.MetricColumn{}, &stageerr.InputError{Err: err}
	}
	if !found || col.Int32 == nil {
		return resultfiles.MetricColumn{}, config.Errorf(KeyMetrics, "%q: %s has no int32 column %q", name, g.File, column)
	}
	if len(col.Int32) != g.Edges.M() {
		return resultfiles.MetricColumn{}, &stageerr.InputError{Err: fmt.Errorf("%s: column %q has %d values for %d arcs", g.File, column, len(col.Int32), g.Edges.M())}
	}
	g.Edges.Metric = col.Int32
	return resultfiles.MetricColumn{Name: name, Unit: col.Unit}, nil
}

// isWeight is the error for a metric the search already minimises.
func isWeight(name string) error {
	return config.Errorf(KeyMetrics, "%q is the weight the search minimises: the distance column holds it", name)
}

// edgesColumn reads the column name of the edges table of the ingest
// output g was read from, checked against the folder's manifest; found is
// false when the table has no such column.
func edgesColumn(g *input.LoadedGraph, name string) (col tables.ArcColumn, found bool, err error) {
	cfg, err := tables.NewConfig(nil)
	if err != nil {
		return col, false, err
	}
	tr, err := tables.OpenTable(g.File, cfg)
	if err != nil {
		return col, false, err
	}
	present := len(tr.Schema().FieldIndices(name)) == 1
	tr.Close()
	if !present {
		return col, false, nil
	}
	err = g.Listing().VerifiedRead([]string{g.File}, func() (err error) {
		col, err = tables.ReadArcColumn(g.File, name)
		return err
	})
	return col, err == nil, err
}

// hierarchyCarriesMetrics reports whether the stored hierarchy h answers
// the run's metrics: every run without them, and a run with the one its
// arcs carry. A hierarchy without it may have dropped the shortcuts of
// paths that tie on the weight, so the backend builds one instead, as
// the log says.
func hierarchyCarriesMetrics(cfg *Config, h *hierarchy.Hierarchy, log *slog.Logger) bool {
	if len(cfg.Metrics) == 0 || h.Metric == cfg.Metrics[0] {
		return true
	}
	log.Info("stored contraction hierarchy not used", "why",
		fmt.Sprintf("its arcs carry the metric %q and the run reports %q: the backend builds one for it", h.Metric, cfg.Metrics[0]))
	return false
}

// withRunMetric returns the graph a run reads its metric from: g, with the
// metric a reload file carries dropped when the run reports none (so that
// nothing builds a hierarchy for pairs it does not need); or, when the run
// reports a metric that g's reload file does not carry, the input read
// again from its tables, whose edges table holds every column in the
// arcs' order.
func withRunMetric(ctx context.Context, cfg *Config, spec input.Spec, g *input.LoadedGraph, log *slog.Logger, progressOut io.Writer) (*input.LoadedGraph, error) {
	switch name := cfg.metricName(); {
	case name == "" && g.ArcMetric != "":
		g.Edges.Metric, g.ArcMetric, g.ArcMetricUnit = nil, "", ""
		if g.CSR != nil {
			g.CSR.Metric = nil
		}
	case name != "" && g.CSR != nil && g.ArcMetric != name:
		log.Info("reading the tables", "why", fmt.Sprintf("the reload file carries no metric %q", name))
		spec.Tables = input.TablesAlways
		return input.LoadGraph(ctx, spec, log, progressOut, cfg.Log.Quiet)
	}
	return g, nil
}
