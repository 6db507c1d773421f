package compute

import (
	"slices"

	"github.com/pathflow/pathflow/formats"
	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/pipeline/output"
)

// KeyPathPairs is the file of path requests: the pairs whose paths the
// run writes, a row each.
const KeyPathPairs = "compute.path_pairs"

func pathPairKeys() []config.Key {
	return []config.Key{
		{Name: KeyPathPairs, Default: "", Path: true, Flag: "path-pairs", Usage: "path requests: a Parquet, Arrow IPC or CSV file with columns source and target (ids as compute.ids says), as compute.pairs reads it, or a list of trips between places with columns id, origin_lon, origin_lat, destination_lon, destination_lat (or from_*, to_*), as compute.place_pairs reads it, told apart by their columns; writes paths.<ext>, a row per file row in file order with the file's other columns (on a road network: GeoParquet routes with time, length and geometry; a trip's route runs between its snapped ends, beside a points table), and no distances table; excludes compute.sources, compute.targets, compute.pairs and compute.paths"},
	}
}

// checkPathPairsShape records in vs what a file of path requests
// excludes: its pairs name the searches and the paths, its answer is the
// paths table alone, and every path is whole.
func checkPathPairsShape(vs *config.Values, cfg *Config, formatName string) {
	if cfg.PathPairs == "" {
		return
	}
	switch {
	case !slices.Equal(cfg.Sources, []string{"0"}) || !slices.Equal(cfg.Targets, []string{"all"}) || cfg.PairList != "" || len(cfg.Pairs) > 0:
		vs.Fail(KeyPathPairs, "the file names the paths: leave %s, %s, %s and %s unset", KeySources, KeyTargets, KeyPairList, KeyPaths)
	case cfg.Places.Enabled():
		vs.Fail(KeyPathPairs, "routes between places come from a list of trips given to %s itself: leave %s, %s and %s unset", KeyPathPairs, KeyOrigins, KeyDestinations, KeyPlacePairs)
	case cfg.Summary:
		vs.Fail(KeyPathPairs, "the paths table is written alone (it holds each pair's distance): leave %s unset", KeySummary)
	case cfg.MaxDistance != results.NoCutoff:
		vs.Fail(KeyPathPairs, "a path is written whole: it takes no %s", KeyMaxDistance)
	case formatName == string(formats.KindDistanceMatrix):
		vs.Fail(KeyPathPairs, "paths are written as parquet or arrow, not %s (%s)", formatName, output.KeyOutputFormat)
	}
}
