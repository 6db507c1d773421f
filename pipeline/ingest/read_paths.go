package ingest

import (
	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/pipeline/input"
	"github.com/pathflow/pathflow/pipeline/output"
)

// readPaths lists every file and folder an ingest run reads: the graph
// input's and the config file.
func (c *Config) readPaths() []output.ReadPath {
	paths := input.ReadPaths(c.Input)
	if c.ConfigFile != "" {
		paths = append(paths, output.ReadPath{Key: "-" + config.ConfigFlag, Path: c.ConfigFile})
	}
	return paths
}
