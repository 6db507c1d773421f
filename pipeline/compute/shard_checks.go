package compute

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/pathflow/pathflow/pipeline/output"
	"github.com/pathflow/pathflow/pipeline/stageerr"
)

// datasetFolderCheck refuses to write shards into a folder that holds the
// output of an unsharded run: the two layouts would mix.
func datasetFolderCheck(root string) error {
	b, err := os.ReadFile(filepath.Join(root, output.ManifestName))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return &stageerr.OutputError{Err: err}
	}
	var top struct {
		Shards int `json:"shards"`
	}
	if json.Unmarshal(b, &top) != nil || top.Shards == 0 {
		return &stageerr.OutputError{Err: fmt.Errorf("%s holds the output of an unsharded run (%s): remove it or set another %s for a sharded run",
			root, output.ManifestName, output.KeyOutputDir)}
	}
	return nil
}

// shardedDatasetCheck refuses to replace a sharded dataset with the output
// of an unsharded run: its commit would remove every shard's partitions,
// other tasks' included, and the temporaries of attempts still running.
func shardedDatasetCheck(root string) error {
	_, err := os.Stat(filepath.Join(root, output.ShardsDir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return &stageerr.OutputError{Err: err}
	}
	return &stageerr.OutputError{Err: fmt.Errorf("%s holds a sharded dataset (%s): an unsharded run would replace every shard; remove it, set another %s, or set %s",
		root, output.ShardsDir, output.KeyOutputDir, KeyShard)}
}
