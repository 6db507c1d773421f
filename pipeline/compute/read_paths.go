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
	if c.PairList != "" {
		paths = append(paths, output.ReadPath{Key: KeyPairList, Path: c.PairList})
	}
	if c.ConfigFile != "" {
		paths = append(paths, output.ReadPath{Key: "-" + config.ConfigFlag, Path: c.ConfigFile})
	}
	return paths
}
