package compute

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"

	"github.com/pathflow/pathflow/formats"
	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/internal/resultfiles"
	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/internal/tables"
	"github.com/pathflow/pathflow/pipeline/ingest"
	"github.com/pathflow/pathflow/pipeline/input"
	"github.com/pathflow/pathflow/pipeline/output"
	"github.com/pathflow/pathflow/pipeline/runlog"
)

// Compute configuration keys.
const (
	KeyAlgorithm       = "compute.algorithm"
	KeyVariant         = "compute.variant"
	KeyBackend         = "compute.backend"
	KeySources         = "compute.sources"
	KeyIDs             = "compute.ids"
	KeyParents         = "compute.parents"
	KeyBlockSize       = "compute.block_size"
	KeyWorkers         = "compute.workers"
	KeyPaths           = "compute.paths"
	KeySummary         = "compute.summary"
	KeyTargets         = "compute.targets"
	KeyMaxDistance     = "compute.max_distance"
	KeyPairList        = "compute.pairs"
	KeyPartRows        = "output.part_rows"
	KeyDistances       = "output.distances"
	KeyLayout          = "output.layout"
	KeyCompressionLvl  = "output.compression_level"
	KeySkipIfUnchanged = "output.skip_if_unchanged"
)

// BackendAuto is compute.backend's choice of the GPU when one answers, the
// CPU otherwise; the other values are the backend names (backend.CPU,
// backend.GPU).
const BackendAuto = "auto"

// Keys declares every key the compute command reads.
func Keys() []config.Key {
	return append(append(input.Keys(),
		config.Key{Name: KeyAlgorithm, Default: backend.AlgorithmAuto, Flag: "algorithm", Usage: "auto, dijkstra, bellman-ford, sssp (single/multi-source), floyd-warshall, johnson (all pairs), ch (contraction hierarchy on either backend, weights >= 0)"},
		config.Key{Name: KeyVariant, Default: "", Flag: "variant", Usage: "algorithm variant (see docs/algorithms.md); empty for the backend's best"},
		config.Key{Name: KeyBackend, Default: BackendAuto, Flag: "backend", Usage: "cpu, gpu, or auto (the GPU when built with -tags cuda, a device answers and the job repays opening it; gpu without one exits 8)"},
		config.Key{Name: KeyIDs, Default: input.IDsDense, Flag: "ids", Usage: "how sources, targets and paths name vertices: dense (0-based ids of the outputs) or original (the input file's ids)"},
		config.Key{Name: KeySources, Default: []string{"0"}, Flag: "sources", Usage: "source vertices (ids as compute.ids says): ids, ranges lo-hi, or all"},
		config.Key{Name: KeyTargets, Default: []string{"all"}, Flag: "targets", Usage: "target vertices written for every source (ids, ranges lo-hi, or all), in this order"},
		config.Key{Name: KeyPairList, Default: "", Path: true, Flag: "pairs", Usage: "pair list file (Parquet, Arrow IPC or CSV with columns source and target, ids as compute.ids says): compute exactly these pairs, grouped by source; excludes compute.sources and compute.targets"},
		config.Key{Name: KeyMaxDistance, Default: -1, Flag: "max-distance", Usage: "write only vertices within this distance (and stop searching beyond it where the algorithm allows); -1 for no cutoff"},
		config.Key{Name: KeyParents, Default: true, Flag: "parents", Usage: "compute and write parents (predecessors)"},
		config.Key{Name: KeyBlockSize, Default: 0, Flag: "block-size", Usage: "tile edge of blocked all-pairs variants; 0 for the default"},
		config.Key{Name: KeyWorkers, Default: 0, Flag: "workers", Usage: "CPU worker goroutines; 0 for one per core"},
		config.Key{Name: KeyPaths, Default: []string{}, Flag: "paths", Usage: "source:target pairs (e.g. 0:4095) whose vertex sequences go to paths.<ext>"},
		config.Key{Name: KeySummary, Default: false, Flag: "summary", Usage: "write summary.<ext>: reachable count (within max_distance when set), eccentricity and closeness per source"},
		config.Key{Name: output.KeyOutputDir, Default: "", Path: true, Flag: "out", Usage: "output folder (default out/<input name>-<algorithm>)"},
		config.Key{Name: output.KeyOutputFormat, Default: "parquet", Flag: "output-format", Usage: "parquet, arrow (IPC file) or distmatrix (n x n int32, all pairs only)"},
		config.Key{Name: KeyDistances, Default: true, Flag: "distances", Usage: "write the distances table (distances/ or distances.bin); false writes only what else is asked (compute.summary, compute.paths), reducing every row as it arrives"},
		config.Key{Name: KeyLayout, Default: "long", Flag: "layout", Usage: "long (a row per source and target) or wide (a row per source, list columns)"},
		config.Key{Name: output.KeyCompression, Default: "default", Flag: "compression", Usage: "zstd, lz4, snappy or none; default: snappy for parquet, none for arrow"},
		config.Key{Name: KeyCompressionLvl, Default: 0, Usage: "zstd level (1-22); 0 for the codec's default (3)"},
		config.Key{Name: output.KeyOutputBatchRows, Default: tables.DefaultBatchRows, Usage: "rows per record batch / row group"},
		config.Key{Name: KeyPartRows, Default: tables.DefaultPartRows, Usage: "rows (source x target pairs) per distances part file"},
		config.Key{Name: KeySkipIfUnchanged, Default: false, Flag: "skip-if-unchanged", Usage: "do nothing when the manifest shows the same input, config and version"},
		output.OverwriteKey(),
		ingest.HierarchyKey(""),
		ingest.HierarchyTablesKey(""),
		ingest.ReloadKey(),
	), append(append(append(append(shardKeys(), deviceKeys()...), placeKeys()...), pathPairKeys()...), metricKeys()...)...)
}

// Config is a validated compute run.
type Config struct {
	Input     input.Spec
	Algorithm string
	Variant   string
	Backend   string
	// OriginalIDs is true when Sources, Targets and Pairs name vertices by
	// the input's ids (compute.ids: original) rather than dense ids.
	OriginalIDs bool
	Sources     []string // resolved against the graph once it is loaded
	Targets     []string // likewise
	// PairList is the pair list file (compute.pairs), empty for none: the
	// run computes its pairs instead of Sources x Targets.
	PairList string
	// PathPairs is the file of path requests (compute.path_pairs), empty
	// for none: the run writes the paths table of its pairs alone.
	PathPairs string
	// Places are the origins and destinations of a table of places
	// (places_config.go); zero for a table of vertices.
	Places PlacesSpec
	// Metrics are the arc metrics reported beside the distance
	// (compute.metrics, metrics_config.go); empty for none.
	Metrics []string
	// MaxDistance is the cutoff, results.NoCutoff for none.
	MaxDistance int64
	Parents     bool
	TileEdge    int
	Workers     int
	Pairs       []string
	Summary     bool
	// Distances is output.distances: false writes no distances table,
	// only the summary and paths, so a run measures and uses whole trees
	// without the cost of writing their rows.
	Distances bool
	OutDir    string
	// Overwrite is output.overwrite: which folder at OutDir a run may
	// replace (output.OwnerCheck).
	Overwrite string
	OutFormat tables.Format
	// Matrix is true for output.format distmatrix.
	Matrix           bool
	Layout           resultfiles.Layout
	Compression      tables.Compression
	CompressionLevel int
	BatchRows        int
	PartRows         int64
	SkipIfSame       bool
	Log              runlog.Settings
	// Device is which GPUs the run uses and how much of their memory it
	// may plan on (device_config.go); no result byte depends on it.
	Device DeviceSettings
	// ConfigSHA256 is the checksum of every setting that shapes the
	// results, however they were given (see settingsChecksum); for a
	// sharded run it covers the number of shards (shardedChecksum).
	ConfigSHA256 string
	// Shard is this task's shard of a sharded run (zero: unsharded);
	// Finalize asks to complete the dataset instead (see shard_config.go).
	Shard    Shard
	Finalize bool
	// ConfigFile is the config file the settings were read from, "" for
	// none: a file the run reads, which output.dir must not replace.
	ConfigFile string
}

// ConfigFrom reads and validates the compute keys.
func ConfigFrom(l *config.Loaded) (*Config, error) {
	vs := l.Values()
	cfg := &Config{
		Input:            input.ReadSpec(vs),
		Algorithm:        vs.OneOf(KeyAlgorithm, backend.Algorithms()...),
		Variant:          vs.String(KeyVariant),
		Backend:          vs.OneOf(KeyBackend, BackendAuto, backend.CPU, backend.GPU),
		OriginalIDs:      vs.OneOf(KeyIDs, input.IDsDense, input.IDsOriginal) == input.IDsOriginal,
		Sources:          vs.StringList(KeySources),
		Targets:          vs.StringList(KeyTargets),
		PairList:         vs.Path(KeyPairList, false),
		PathPairs:        vs.Path(KeyPathPairs, false),
		Metrics:          vs.StringList(KeyMetrics),
		MaxDistance:      vs.Int64(KeyMaxDistance, -1, math.MaxInt64),
		CompressionLevel: vs.Int(KeyCompressionLvl, 0, 22),
		Parents:          vs.Bool(KeyParents),
		TileEdge:         vs.Int(KeyBlockSize, 0, 1024),
		Workers:          vs.Int(KeyWorkers, 0, 4096),
		Device:           readDeviceSettings(vs),
		Pairs:            vs.StringList(KeyPaths),
		Summary:          vs.Bool(KeySummary),
		Distances:        vs.Bool(KeyDistances),
		OutDir:           vs.String(output.KeyOutputDir),
		Overwrite:        output.ReadOverwrite(vs),
		BatchRows:        vs.Int(output.KeyOutputBatchRows, 1, 1<<28),
		PartRows:         vs.Int64(KeyPartRows, 1, 1<<40),
		SkipIfSame:       vs.Bool(KeySkipIfUnchanged),
		Log:              runlog.Read(vs),
		ConfigFile:       output.ConfigPath(l),
	}
	formatName := vs.OneOf(output.KeyOutputFormat, "parquet", "arrow", string(formats.KindDistanceMatrix))
	layoutName := vs.OneOf(KeyLayout, "long", "wide")
	codecName := vs.OneOf(output.KeyCompression, "default", "zstd", "lz4", "snappy", "none")
	checkComputeShape(vs, cfg, formatName, layoutName, codecName)
	cfg.Places = readPlaces(vs, cfg, formatName, layoutName)
	checkPathPairsShape(vs, cfg, formatName)
	checkMetricsShape(vs, cfg, formatName)
	if err := vs.Err(); err != nil {
		return nil, err
	}
	if err := cfg.setEncoding(formatName, layoutName, codecName); err != nil {
		return nil, err
	}
	if cfg.CompressionLevel == 0 {
		cfg.CompressionLevel = tables.DefaultZstdLevel
	}
	if cfg.OutDir == "" {
		cfg.OutDir = filepath.Join("out", input.Stem(cfg.Input)+"-"+cfg.Algorithm)
	}
	if cfg.Workers == 0 {
		cfg.Workers = runtime.GOMAXPROCS(0)
	}
	sum, err := settingsChecksum(l)
	if err != nil {
		return nil, err
	}
	cfg.ConfigSHA256 = sum
	if err := cfg.applyShard(vs, os.LookupEnv); err != nil {
		return nil, err
	}
	return cfg, nil
}

// checkComputeShape records in vs the problems of key combinations: empty
// vertex lists, codecs a format lacks, what a distance matrix cannot hold,
// paths without parents.
func checkComputeShape(vs *config.Values, cfg *Config, formatName, layoutName, codecName string) {
	if len(cfg.Sources) == 0 {
		vs.Fail(KeySources, "needs at least one source (an id, a range lo-hi, or all)")
	}
	if len(cfg.Targets) == 0 {
		vs.Fail(KeyTargets, "needs at least one target (an id, a range lo-hi, or all)")
	}
	checkVertexList(vs, KeySources, cfg.Sources)
	checkVertexList(vs, KeyTargets, cfg.Targets)
	if formatName == "arrow" && codecName == "snappy" {
		vs.Fail(output.KeyCompression, "Arrow IPC files have no snappy codec: use lz4, zstd or none")
	}
	if formatName == string(formats.KindDistanceMatrix) {
		if cfg.Parents {
			vs.Fail(output.KeyOutputFormat, "distmatrix holds distances only: set %s: false", KeyParents)
		}
		if cfg.MaxDistance != results.NoCutoff || layoutName != "long" {
			vs.Fail(output.KeyOutputFormat, "distmatrix writes whole matrices: it takes no %s or %s", KeyMaxDistance, KeyLayout)
		}
		if cfg.Summary || len(cfg.Pairs) > 0 {
			vs.Fail(output.KeyOutputFormat, "distmatrix writes the matrix alone: it takes no %s or %s", KeySummary, KeyPaths)
		}
	}
	if !cfg.Distances {
		if formatName == string(formats.KindDistanceMatrix) {
			vs.Fail(KeyDistances, "false writes no distances, and distmatrix is nothing else: leave %s unset", output.KeyOutputFormat)
		}
		if !cfg.Summary && len(cfg.Pairs) == 0 && cfg.PathPairs == "" {
			vs.Fail(KeyDistances, "false leaves nothing to write: set %s: true or %s", KeySummary, KeyPaths)
		}
	}
	if len(cfg.Pairs) > 0 && !cfg.Parents {
		vs.Fail(KeyPaths, "needs %s: true (paths are read off the parents)", KeyParents)
	}
	checkPairListShape(vs, cfg, formatName, layoutName)
}

// checkPairListShape records the keys a pair list excludes: its pairs
// name the sources and targets, a row per pair has no wide form, and a
// distance matrix holds all pairs.
func checkPairListShape(vs *config.Values, cfg *Config, formatName, layoutName string) {
	if cfg.PairList == "" {
		return
	}
	if !slices.Equal(cfg.Sources, []string{"0"}) || !slices.Equal(cfg.Targets, []string{"all"}) {
		vs.Fail(KeyPairList, "the pair list names the sources and targets: leave %s and %s unset", KeySources, KeyTargets)
	}
	if layoutName != "long" {
		vs.Fail(KeyPairList, "a pair list is written a row per pair: it needs %s: long", KeyLayout)
	}
	if formatName == string(formats.KindDistanceMatrix) {
		vs.Fail(KeyPairList, "distmatrix writes whole all-pairs matrices, not a pair list")
	}
}

// setEncoding sets the output format, layout and codec from their
// validated names; "default" compression is snappy for Parquet and none
// for Arrow IPC, which every reader opens without a plugin.
func (c *Config) setEncoding(formatName, layoutName, codecName string) error {
	var err error
	c.Matrix = formatName == string(formats.KindDistanceMatrix)
	if !c.Matrix {
		if c.OutFormat, err = tables.ParseFormat(formatName); err != nil {
			return config.Errorf(output.KeyOutputFormat, "%v", err)
		}
	}
	if c.Layout, err = resultfiles.ParseLayout(layoutName); err != nil {
		return config.Errorf(KeyLayout, "%v", err)
	}
	switch {
	case codecName != "default":
		if c.Compression, err = tables.ParseCompression(codecName); err != nil {
			return config.Errorf(output.KeyCompression, "%v", err)
		}
	default:
		c.Compression = tables.DefaultCompression(c.OutFormat)
	}
	return nil
}

// runOnlyKeys change how a run goes (where it writes, how it logs, which
// backend, how many goroutines and which GPUs it uses, where it looks for
// inputs), never a byte of its results, so the settings checksum leaves
// them out: shards computed on GPU hosts finalize under a config that
// says cpu, and a GPU host's output is current for a CPU host's run.
// The keys that select the input (path, dataset, generator spec) are left
// out too: the input's own checksum, recorded beside the settings', stands
// for them, so the same file read from another folder gives the same
// bytes.
var runOnlyKeys = []string{
	output.KeyOutputDir, output.KeyOutputOverwrite, KeySkipIfUnchanged, KeyWorkers, input.KeyInputMirror, input.KeyInputOffline,
	KeyBackend, // how the result is computed, not which result: the manifest names the backend that ran
	input.KeyInputPath, input.KeyInputDataset, input.KeyInputGenerate,
	KeyDevices, KeyGPUMemoryLimit, // several GPUs and out-of-core runs give the one-GPU bytes
	KeyShard, KeyShards, KeyFinalize, // the shard count enters through shardedChecksum
	KeyPairList, KeyOrigins, KeyDestinations, KeyPlacePairs, KeyPathPairs, // their files' bytes enter through withInputFilesChecksum
	ingest.KeyIngestHierarchy, ingest.KeyIngestHierarchyTables, // read by ingest alone; a stored hierarchy changes no result
	ingest.KeyOutputReload, // ingest's; compute reads the key only to accept shared configs
	// Which tables are written, not their bytes: a summary-only run's
	// summary is the full run's, byte for byte. skip_if_unchanged and
	// shards compare the tables listed instead (listsDistances).
	KeyDistances,
}

// settingsChecksum hashes the merged settings that shape the results, in a
// canonical JSON form, so a flag or environment override changes it just as
// an edit of the file does. The run-only keys and log.* do not count: the
// same computation run elsewhere, on any number of cores, is
// byte-identical.
func settingsChecksum(l *config.Loaded) (string, error) {
	keys := l.V.AllKeys()
	sort.Strings(keys)
	settings := make([][2]any, 0, len(keys))
	for _, k := range keys {
		if strings.HasPrefix(k, "log.") || slices.Contains(runOnlyKeys, k) {
			continue
		}
		settings = append(settings, [2]any{k, l.V.Get(k)})
	}
	b, err := json.Marshal(settings)
	if err != nil {
		return "", fmt.Errorf("pipeline: the settings checksum: %w", err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

// allSources reports whether the sources key asks for every vertex.
// One of several shards computes only its block of rows.
func (c *Config) allSources() bool {
	return len(c.Sources) == 1 && strings.TrimSpace(c.Sources[0]) == "all" && !c.Shard.Split()
}
