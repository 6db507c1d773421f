package pipeline

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/internal/cpu"
	"github.com/pathflow/pathflow/internal/tables"
)

// Compute configuration keys.
const (
	KeyAlgorithm       = "compute.algorithm"
	KeyVariant         = "compute.variant"
	KeyBackend         = "compute.backend"
	KeySources         = "compute.sources"
	KeyParents         = "compute.parents"
	KeyBlockSize       = "compute.block_size"
	KeyWorkers         = "compute.workers"
	KeyPaths           = "compute.paths"
	KeySummary         = "compute.summary"
	KeyPartRows        = "output.part_rows"
	KeySkipIfUnchanged = "output.skip_if_unchanged"
)

// Algorithm names accepted by compute.algorithm: the names the backends
// take, plus "sssp", the GPU's single-source family.
const (
	AlgorithmAuto          = cpu.AlgorithmAuto
	AlgorithmDijkstra      = cpu.AlgorithmDijkstra
	AlgorithmBellmanFord   = cpu.AlgorithmBellmanFord
	AlgorithmFloydWarshall = cpu.AlgorithmFloydWarshall
	AlgorithmJohnson       = cpu.AlgorithmJohnson
	AlgorithmSSSP          = "sssp"
)

// Backend names accepted by compute.backend.
const (
	BackendAuto = "auto"
	BackendCPU  = "cpu"
	BackendGPU  = "gpu"
)

// ComputeKeys declares every key the compute command reads.
func ComputeKeys() []config.Key {
	return append(InputKeys(),
		config.Key{Name: KeyAlgorithm, Default: AlgorithmAuto, Flag: "algorithm", Usage: "auto, dijkstra, bellman-ford, sssp (single/multi-source), floyd-warshall, johnson (all pairs)"},
		config.Key{Name: KeyVariant, Default: "", Flag: "variant", Usage: "algorithm variant (see docs/algorithms.md); empty for the backend's best"},
		config.Key{Name: KeyBackend, Default: BackendAuto, Flag: "backend", Usage: "cpu, gpu, or auto (the GPU when built with -tags cuda and a device answers)"},
		config.Key{Name: KeySources, Default: []string{"0"}, Flag: "sources", Usage: "source vertices (0-based dense ids): ids, ranges lo-hi, or all"},
		config.Key{Name: KeyParents, Default: true, Flag: "parents", Usage: "compute and write parents (predecessors)"},
		config.Key{Name: KeyBlockSize, Default: 0, Flag: "block-size", Usage: "tile edge of blocked all-pairs variants; 0 for the default"},
		config.Key{Name: KeyWorkers, Default: 0, Flag: "workers", Usage: "CPU worker goroutines; 0 for one per core"},
		config.Key{Name: KeyPaths, Default: []string{}, Flag: "paths", Usage: "source-target pairs whose vertex sequences go to paths.<ext>"},
		config.Key{Name: KeySummary, Default: false, Flag: "summary", Usage: "write summary.<ext>: reachable count, eccentricity and closeness per source"},
		config.Key{Name: KeyOutputDir, Default: "", Flag: "out", Usage: "output folder (default out/<input name>-<algorithm>)"},
		config.Key{Name: KeyOutputFormat, Default: "parquet", Flag: "output-format", Usage: "parquet (zstd) or arrow (IPC file, zstd)"},
		config.Key{Name: KeyOutputBatchRows, Default: 1 << 20, Usage: "rows per record batch / row group"},
		config.Key{Name: KeyPartRows, Default: 1 << 26, Usage: "rows per distances part file"},
		config.Key{Name: KeySkipIfUnchanged, Default: false, Flag: "skip-if-unchanged", Usage: "do nothing when the manifest shows the same input, config and version"},
	)
}

// ComputeConfig is a validated compute run.
type ComputeConfig struct {
	Input      InputSpec
	Algorithm  string
	Variant    string
	Backend    string
	Sources    []string // resolved against the graph once it is loaded
	Parents    bool
	BlockSize  int
	Workers    int
	Pairs      []string
	Summary    bool
	OutDir     string
	OutFormat  tables.Format
	BatchRows  int
	PartRows   int64
	SkipIfSame bool
	Log        LogSettings
	// ConfigSHA256 is the checksum of every setting that shapes the
	// results, however they were given (see settingsChecksum).
	ConfigSHA256 string
}

// ComputeConfigFrom reads and validates the compute keys.
func ComputeConfigFrom(l *config.Loaded) (*ComputeConfig, error) {
	vs := l.Values()
	cfg := &ComputeConfig{
		Input:      readInputSpec(vs),
		Algorithm:  vs.OneOf(KeyAlgorithm, AlgorithmAuto, AlgorithmDijkstra, AlgorithmBellmanFord, AlgorithmSSSP, AlgorithmFloydWarshall, AlgorithmJohnson),
		Variant:    vs.String(KeyVariant),
		Backend:    vs.OneOf(KeyBackend, BackendAuto, BackendCPU, BackendGPU),
		Sources:    vs.StringList(KeySources),
		Parents:    vs.Bool(KeyParents),
		BlockSize:  vs.Int(KeyBlockSize, 0, 1024),
		Workers:    vs.Int(KeyWorkers, 0, 4096),
		Pairs:      vs.StringList(KeyPaths),
		Summary:    vs.Bool(KeySummary),
		OutDir:     vs.String(KeyOutputDir),
		BatchRows:  vs.Int(KeyOutputBatchRows, 1, 1<<28),
		PartRows:   vs.Int64(KeyPartRows, 1, 1<<40),
		SkipIfSame: vs.Bool(KeySkipIfUnchanged),
		Log:        readLogSettings(vs),
	}
	formatName := vs.OneOf(KeyOutputFormat, "parquet", "arrow")
	if len(cfg.Sources) == 0 {
		vs.Fail(KeySources, "needs at least one source (an id, a range lo-hi, or all)")
	}
	if len(cfg.Pairs) > 0 && !cfg.Parents {
		vs.Fail(KeyPaths, "needs %s: true (paths are read off the parents)", KeyParents)
	}
	if err := vs.Err(); err != nil {
		return nil, err
	}
	cfg.OutFormat, _ = tables.ParseFormat(formatName)
	if cfg.OutDir == "" {
		cfg.OutDir = filepath.Join("out", inputStem(cfg.Input)+"-"+cfg.Algorithm)
	}
	if cfg.Workers == 0 {
		cfg.Workers = runtime.GOMAXPROCS(0)
	}
	cfg.ConfigSHA256 = settingsChecksum(l)
	return cfg, nil
}

// settingsChecksum hashes the merged settings that shape the results, in a
// canonical JSON form, so a flag or environment override changes it just as
// an edit of the file does. Where the results go and how the run logs
// (output.dir, output.skip_if_unchanged, log.*) do not count: the same
// computation written elsewhere is byte-identical.
func settingsChecksum(l *config.Loaded) string {
	keys := l.V.AllKeys()
	sort.Strings(keys)
	settings := make([][2]any, 0, len(keys))
	for _, k := range keys {
		if strings.HasPrefix(k, "log.") || k == KeyOutputDir || k == KeySkipIfUnchanged {
			continue
		}
		settings = append(settings, [2]any{k, l.V.Get(k)})
	}
	b, _ := json.Marshal(settings)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// allSources reports whether the sources key asks for every vertex.
func (c *ComputeConfig) allSources() bool {
	return len(c.Sources) == 1 && strings.TrimSpace(c.Sources[0]) == "all"
}
