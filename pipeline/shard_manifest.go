package pipeline

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Names in a sharded output folder (a dataset). Folders and files whose
// names start with '_' or '.' are skipped by Spark, Hive and pyarrow
// datasets, and the data glob OUT/<table>/*/*.parquet never reaches them.
const (
	// ShardsDir holds one folder per committed shard, shard=NNNN, with the
	// shard's manifest, its vertices table and its SuccessName marker.
	ShardsDir = "_shards"
	// SuccessName marks a complete shard (in its ShardsDir folder) or,
	// written by finalize, a complete dataset (at the top).
	SuccessName = "_SUCCESS"
)

// ShardManifest is the manifest of one committed shard: the run manifest
// of the task, with paths relative to the dataset folder, and which shard
// of how many it is.
type ShardManifest struct {
	Manifest
	Shard  int `json:"shard"`
	Shards int `json:"shards"`
}

// DatasetManifest is the manifest finalize writes at the top of a complete
// sharded dataset: the shards' facts summed (sources, stage seconds) or
// merged (files, and backends and devices, comma-separated when they
// differ), and one line per shard.
type DatasetManifest struct {
	Manifest
	Shards    int        `json:"shards"`
	ShardRuns []ShardRun `json:"shard_runs"`
}

// ShardRun is one shard's line in a DatasetManifest.
type ShardRun struct {
	Shard        int     `json:"shard"`
	Sources      int     `json:"sources"`
	Rows         int64   `json:"rows"`
	Backend      string  `json:"backend"`
	Device       string  `json:"device"`
	Algorithm    string  `json:"algorithm"`
	Seconds      float64 `json:"seconds"`
	PeakRSSBytes int64   `json:"peak_rss_bytes,omitempty"`
	Host         string  `json:"host,omitempty"`
	StartedAt    string  `json:"started_at,omitempty"`
	FinishedAt   string  `json:"finished_at,omitempty"`
}

// shardDir is the folder of shard i's manifest and marker.
func shardDir(root string, i int) string {
	return filepath.Join(root, ShardsDir, shardName(i))
}

// readShardManifest reads the manifest in a shard's folder.
func readShardManifest(dir string) (*ShardManifest, error) {
	b, err := os.ReadFile(filepath.Join(dir, ManifestName))
	if err != nil {
		return nil, err
	}
	var m ShardManifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, ManifestName), err)
	}
	return &m, nil
}

// encodeJSON writes v as indented JSON.
func encodeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// datasetFolderCheck refuses to write shards into a folder that holds the
// output of an unsharded run: the two layouts would mix.
func datasetFolderCheck(root string) error {
	b, err := os.ReadFile(filepath.Join(root, ManifestName))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return &OutputError{err}
	}
	var top struct {
		Shards int `json:"shards"`
	}
	if json.Unmarshal(b, &top) != nil || top.Shards == 0 {
		return &OutputError{fmt.Errorf("%s holds the output of an unsharded run (%s): remove it or set another %s for a sharded run",
			root, ManifestName, KeyOutputDir)}
	}
	return nil
}

// shardedDatasetCheck refuses to replace a sharded dataset with the output
// of an unsharded run: its commit would remove every shard's partitions,
// other tasks' included, and the temporaries of attempts still running.
func shardedDatasetCheck(root string) error {
	_, err := os.Stat(filepath.Join(root, ShardsDir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return &OutputError{err}
	}
	return &OutputError{fmt.Errorf("%s holds a sharded dataset (%s): an unsharded run would replace every shard; remove it, set another %s, or set %s",
		root, ShardsDir, KeyOutputDir, KeyShard)}
}
