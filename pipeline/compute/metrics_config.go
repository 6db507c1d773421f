package compute

import (
	"github.com/pathflow/pathflow/formats"
	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/pipeline/output"
)

// KeyMetrics names the arc metrics a run reports beside the distance,
// each summed along the path the run chose.
const KeyMetrics = "compute.metrics"

func metricKeys() []config.Key {
	return []config.Key{
		{Name: KeyMetrics, Default: []string{}, Flag: "metrics", Usage: "arc metrics to report beside the distance, each summed along the shortest path (ties on the weight go to the smaller metric): time or length on a road network (OpenStreetMap, or its ingest output), or the name of an int32 column of the input's edges table; a column named after each follows distance, with its unit. One metric; dijkstra, bellman-ford and ch on the CPU backend, ch and near-far on the GPU; either layout, pair lists, tables of places and lists of trips"},
	}
}

// checkMetricsShape records in vs what compute.metrics excludes: more
// than one metric, and the outputs that have no metric column yet.
func checkMetricsShape(vs *config.Values, cfg *Config, formatName string) {
	switch {
	case len(cfg.Metrics) == 0:
	case len(cfg.Metrics) > 1:
		vs.Fail(KeyMetrics, "one metric is reported beside the distance, got %d (%v)", len(cfg.Metrics), cfg.Metrics)
	case cfg.Metrics[0] == "":
		vs.Fail(KeyMetrics, "an empty metric name")
	case formatName == string(formats.KindDistanceMatrix):
		vs.Fail(KeyMetrics, "a distance matrix holds distances alone (%s: %s)", output.KeyOutputFormat, formatName)
	case cfg.PathPairs != "":
		vs.Fail(KeyMetrics, "routes carry their time and length already: leave %s unset with %s", KeyMetrics, KeyPathPairs)
	}
}

// metricName is the metric the run reports, "" for none.
func (c *Config) metricName() string {
	if len(c.Metrics) == 0 {
		return ""
	}
	return c.Metrics[0]
}
