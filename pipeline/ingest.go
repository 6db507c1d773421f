package pipeline

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/internal/tables"
)

// Ingest output keys.
const (
	KeyOutputDir       = "output.dir"
	KeyOutputFormat    = "output.format"
	KeyOutputBatchRows = "output.batch_rows"
)

// IngestKeys declares every key the ingest command reads.
func IngestKeys() []config.Key {
	return append(InputKeys(),
		config.Key{Name: KeyOutputDir, Default: "", Flag: "out", Usage: "output folder for edges.<ext> and vertices.<ext> (default out/<input name>)"},
		config.Key{Name: KeyOutputFormat, Default: "arrow", Flag: "output-format", Usage: "arrow (IPC file, zstd) or parquet (zstd)"},
		config.Key{Name: KeyOutputBatchRows, Default: 1 << 20, Usage: "rows per record batch / row group"},
	)
}

// IngestConfig is a validated ingest run.
type IngestConfig struct {
	Input     InputSpec
	OutDir    string
	OutFormat tables.Format
	BatchRows int
	Log       LogSettings
}

// IngestConfigFrom reads and validates the ingest keys.
func IngestConfigFrom(l *config.Loaded) (*IngestConfig, error) {
	vs := l.Values()
	cfg := &IngestConfig{
		Input:     readInputSpec(vs),
		OutDir:    vs.String(KeyOutputDir),
		BatchRows: vs.Int(KeyOutputBatchRows, 1, 1<<28),
		Log:       readLogSettings(vs),
	}
	format, err := tables.ParseFormat(vs.OneOf(KeyOutputFormat, "arrow", "parquet"))
	if vs.Err() != nil {
		return nil, vs.Err()
	}
	if err != nil {
		return nil, config.Errorf(KeyOutputFormat, "%v", err)
	}
	cfg.OutFormat = format
	if cfg.OutDir == "" {
		cfg.OutDir = filepath.Join("out", inputStem(cfg.Input))
	}
	return cfg, nil
}

// inputStem names an input for default output folders: "rome99" for
// rome99.gr, "NY" for the dataset NY.
func inputStem(spec InputSpec) string {
	if spec.Path == "" && spec.Dataset == "" {
		kind, _, _ := strings.Cut(spec.Generate, ":")
		return kind
	}
	if spec.Path == "" {
		return spec.Dataset
	}
	base := filepath.Base(strings.TrimSuffix(spec.Path, string(filepath.Separator)))
	for _, ext := range []string{".gz", ".gr", ".txt", ".bin", ".arrow", ".parquet"} {
		base = strings.TrimSuffix(base, ext)
	}
	return base
}

// IngestResult summarises an ingest run.
type IngestResult struct {
	Graph   *LoadedGraph
	Files   []tables.FileInfo
	Elapsed time.Duration
}

// Ingest reads the configured input and writes its edges and vertices
// tables. Both tables appear only when both are complete.
func Ingest(ctx context.Context, cfg *IngestConfig, log *slog.Logger, progressOut io.Writer) (*IngestResult, error) {
	start := time.Now()
	g, err := LoadGraph(ctx, cfg.Input, log, progressOut, cfg.Log.Quiet)
	if err != nil {
		return nil, err
	}
	meta := graphMetadata(g)
	if err := os.MkdirAll(cfg.OutDir, 0o755); err != nil {
		return nil, &OutputError{err}
	}
	files, err := tables.WriteGraph(tables.GraphFilesIn(cfg.OutDir, cfg.OutFormat), g.Edges, g.Vertices, meta,
		tables.WithFormat(cfg.OutFormat), tables.WithBatchRows(cfg.BatchRows))
	if err != nil {
		return nil, &OutputError{err}
	}
	res := &IngestResult{Graph: g, Files: files, Elapsed: time.Since(start)}
	mbps := float64(g.Bytes) / 1e6 / max(g.Elapsed.Seconds(), 1e-9)
	log.Info("ingested",
		"file", g.File, "format", g.Format, "n", g.Edges.N, "m", g.Edges.M(),
		"parse_s", round3(g.Elapsed.Seconds()), "total_s", round3(res.Elapsed.Seconds()),
		"mb_per_s", round2(mbps), "out", cfg.OutDir)
	return res, nil
}

// graphMetadata is the schema metadata of tables derived from g. It holds
// no timestamps, so the same input gives byte-identical outputs.
func graphMetadata(g *LoadedGraph) map[string]string {
	return map[string]string{
		MetaInputFile:   g.Name,
		MetaInputSHA256: g.SHA256,
		MetaInputFormat: g.Format,
		MetaN:           strconv.Itoa(int(g.Edges.N)),
		MetaM:           strconv.Itoa(g.Edges.M()),
		MetaDirected:    strconv.FormatBool(g.Directed),
		MetaWeighting:   g.Weighting,
		MetaVersion:     Version,
	}
}

func round3(x float64) float64 { return float64(int64(x*1000+0.5)) / 1000 }
