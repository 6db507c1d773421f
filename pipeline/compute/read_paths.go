package compute

import (
	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/pipeline/input"
	"github.com/pathflow/pathflow/pipeline/output"
)

// readPaths lists every file and folder a compute run (a shard's, or
// finalize, alike) reads: the graph input's, the pair list and the config
// file.
func (c *Config) readPaths() []output.ReadPath {
	paths := input.ReadPaths(c.Input)
	paths = append(paths, c.namedInputFiles()...)
	if c.ConfigFile != "" {
		paths = append(paths, output.ReadPath{Key: "-" + config.ConfigFlag, Path: c.ConfigFile})
	}
	return paths
}

// namedInputFiles are the files besides the graph whose paths the settings
// name and whose bytes shape the result: the pair list, the places, the
// path requests and a raw input's metric file.
func (c *Config) namedInputFiles() []output.ReadPath {
	var paths []output.ReadPath
	for _, f := range []output.ReadPath{
		{Key: input.KeyInputMetricFile, Path: c.Input.Metric.File},
		{Key: KeyPairList, Path: c.PairList},
		{Key: KeyOrigins, Path: c.Places.Origins},
		{Key: KeyDestinations, Path: c.Places.Destinations},
		{Key: KeyPlacePairs, Path: c.Places.Pairs},
		{Key: KeyPathPairs, Path: c.PathPairs},
	} {
		if f.Path != "" {
			paths = append(paths, f)
		}
	}
	return paths
}
