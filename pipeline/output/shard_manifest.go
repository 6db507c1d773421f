package output

import (
	"encoding/json"
	"fmt"
	"io"
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

// ShardDir is the folder of shard i's manifest and marker.
func ShardDir(root string, i int) string {
	return filepath.Join(root, ShardsDir, ShardName(i))
}

// ReadShardManifest reads the manifest in a shard's folder.
func ReadShardManifest(dir string) (*ShardManifest, error) {
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

// EncodeJSON writes v as indented JSON.
func EncodeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func ShardName(i int) string { return fmt.Sprintf("shard=%04d", i) }
