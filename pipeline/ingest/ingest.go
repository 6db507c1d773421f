package ingest

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/pathflow/pathflow/formats"
	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/internal/tables"
	"github.com/pathflow/pathflow/internal/version"
	"github.com/pathflow/pathflow/pipeline/input"
	"github.com/pathflow/pathflow/pipeline/output"
	"github.com/pathflow/pathflow/pipeline/runlog"
	"github.com/pathflow/pathflow/pipeline/stageerr"
)

// Ingest output formats: the two tables formats, and conversions that
// write the graph as one file for other tools.
const (
	IngestParquet = "parquet"
	IngestArrow   = "arrow"
	IngestBinary  = string(formats.KindBinary)
	IngestDIMACS  = string(formats.KindDIMACS)
)

// Keys declares every key the ingest command reads.
func Keys() []config.Key {
	return append(input.Keys(),
		config.Key{Name: output.KeyOutputDir, Default: "", Path: true, Flag: "out", Usage: "output folder (default out/<input name>)"},
		config.Key{Name: output.KeyOutputFormat, Default: IngestParquet, Flag: "output-format",
			Usage: "parquet (edges.parquet, vertices.parquet), arrow (IPC files .arrow), or a conversion to one file: binary (graph.bin) or dimacs (graph.gr)"},
		config.Key{Name: output.KeyCompression, Default: "default", Flag: "compression",
			Usage: "tables: zstd, lz4, snappy (parquet only) or none; default: snappy for parquet, none for arrow"},
		config.Key{Name: output.KeyOutputBatchRows, Default: tables.DefaultBatchRows, Usage: "rows per record batch / row group"},
		ReloadKey(),
		output.OverwriteKey(),
		HierarchyKey("hierarchy"),
		HierarchyTablesKey("hierarchy-tables"),
	)
}

// Config is a validated ingest run.
type Config struct {
	Input  input.Spec
	OutDir string
	// Output is one of the Ingest* formats; for the two table formats,
	// Tables and Compression say how to write them.
	Output      string
	Tables      tables.Format
	Compression tables.Compression
	BatchRows   int
	// Reload is output.reload_file: write the reload file beside the
	// tables (input.ReloadName).
	Reload bool
	// Overwrite is output.overwrite: which folder at OutDir the run may
	// replace (output.OwnerCheck).
	Overwrite string
	// Hierarchy is ingest.hierarchy: auto, on or off
	// (hierarchy.go).
	Hierarchy string
	// HierarchyTables is ingest.hierarchy_tables: write a stored
	// hierarchy as Parquet tables too, beside its mapped file.
	HierarchyTables bool
	Log             runlog.Settings
	// ConfigFile is the config file the settings were read from, "" for
	// none: a file the run reads, which output.dir must not replace.
	ConfigFile string
}

// ConfigFrom reads and validates the ingest keys.
func ConfigFrom(l *config.Loaded) (*Config, error) {
	vs := l.Values()
	cfg := &Config{
		Input:           input.ReadSpec(vs),
		OutDir:          vs.String(output.KeyOutputDir),
		Output:          vs.OneOf(output.KeyOutputFormat, IngestParquet, IngestArrow, IngestBinary, IngestDIMACS),
		BatchRows:       vs.Int(output.KeyOutputBatchRows, 1, 1<<28),
		Reload:          vs.Bool(KeyOutputReload),
		Overwrite:       output.ReadOverwrite(vs),
		Hierarchy:       vs.OneOf(KeyIngestHierarchy, HierarchyAuto, HierarchyOn, HierarchyOff),
		HierarchyTables: vs.Bool(KeyIngestHierarchyTables),
		Log:             runlog.Read(vs),
		ConfigFile:      output.ConfigPath(l),
	}
	codec := vs.OneOf(output.KeyCompression, "default", "zstd", "lz4", "snappy", "none")
	switch {
	case cfg.Output == IngestArrow && codec == "snappy":
		vs.Fail(output.KeyCompression, "Arrow IPC files have no snappy codec: use lz4, zstd or none")
	case (cfg.Output == IngestBinary || cfg.Output == IngestDIMACS) && codec != "default":
		vs.Fail(output.KeyCompression, "applies to parquet and arrow tables, not to a %s file", cfg.Output)
	case (cfg.Output == IngestBinary || cfg.Output == IngestDIMACS) && cfg.Hierarchy == HierarchyOn:
		vs.Fail(KeyIngestHierarchy, "a hierarchy is stored beside parquet or arrow tables, not with a %s file", cfg.Output)
	case (cfg.Output == IngestBinary || cfg.Output == IngestDIMACS) && cfg.Input.Metric.File != "":
		vs.Fail(input.KeyInputMetricFile, "its metric is a column of parquet or arrow tables; a %s file holds one weight per arc", cfg.Output)
	}
	if err := vs.Err(); err != nil {
		return nil, err
	}
	cfg.Tables = tables.Parquet
	if cfg.Output == IngestArrow {
		cfg.Tables = tables.Arrow
	}
	cfg.Compression = tables.DefaultCompression(cfg.Tables)
	if codec != "default" {
		c, err := tables.ParseCompression(codec)
		if err != nil {
			return nil, config.Errorf(output.KeyCompression, "%v", err)
		}
		cfg.Compression = c
	}
	if cfg.OutDir == "" {
		cfg.OutDir = filepath.Join("out", input.Stem(cfg.Input))
	}
	return cfg, nil
}

// Result summarises an ingest run.
type Result struct {
	Graph   *input.LoadedGraph
	Files   []tables.FileInfo
	Elapsed time.Duration
}

// Run reads the configured input and writes its edges and vertices
// tables, or converts it to one binary or DIMACS file for other tools, with
// a manifest listing them. Beside the tables it stores a contraction
// hierarchy of the graph when ingest.hierarchy asks for one
// (hierarchy.go). The output folder is written as compute's is:
// in a temporary beside it, committed in one step, replacing only a folder
// that pathflow committed (output.overwrite) and never one the run reads
// from (output.OverlapCheck); a failed run leaves no folder behind.
func Run(ctx context.Context, cfg *Config, log *slog.Logger, progressOut io.Writer) (*Result, error) {
	start := time.Now()
	if err := output.OverlapCheck(cfg.OutDir, cfg.readPaths()); err != nil {
		return nil, err
	}
	outStart, err := output.Begin(cfg.OutDir, cfg.Overwrite)
	if err != nil {
		return nil, err
	}
	spec := cfg.Input
	spec.Tables = input.TablesAlways // an ingest output read again keeps its arc order
	spec.Footprint = input.IngestFootprint
	g, err := input.LoadGraph(ctx, spec, log, progressOut, cfg.Log.Quiet)
	if err != nil {
		return nil, err
	}
	out, err := outStart.Open(log)
	if err != nil {
		return nil, err
	}
	defer out.Abort()
	files, err := writeIngestOutput(cfg, out.Path(), g)
	if err != nil {
		return nil, &stageerr.OutputError{Err: err}
	}
	geometry, err := writeRoadGeometry(cfg, out.Path(), g)
	if err != nil {
		return nil, &stageerr.OutputError{Err: err}
	}
	files = append(files, geometry...)
	stored := storedRowsOf(g)
	hierarchyFiles, hm, err := writeIngestHierarchy(ctx, cfg, out.Path(), g, stored, log)
	if err != nil {
		return nil, err
	}
	files = append(files, hierarchyFiles...)
	if cfg.Reload && (cfg.Output == IngestParquet || cfg.Output == IngestArrow) {
		fi, err := writeReloadFile(out.Path(), g, stored)
		if err != nil {
			return nil, &stageerr.OutputError{Err: err}
		}
		files = append(files, fi)
	}
	m := &output.IngestManifest{
		Version: version.Version, RunID: out.RunID, StartedAt: output.Stamp(start), FinishedAt: output.Stamp(time.Now()), Host: output.HostName(), InputFile: g.Name, InputSHA256: g.SHA256, InputFormat: g.Format,
		OutputFormat: cfg.Output, N: g.Edges.N, M: g.Edges.M(), Seconds: runlog.Round3(time.Since(start).Seconds()),
		Files: output.ManifestFiles(out.Path(), files), Hierarchy: hm, Road: roadManifest(g),
	}
	if err := out.Commit(ctx, func(dir string) error { return output.WriteJSON(filepath.Join(dir, output.ManifestName), m) }); err != nil {
		return nil, err
	}
	for i := range files { // where they are now
		files[i].Path = filepath.Join(cfg.OutDir, filepath.FromSlash(m.Files[i].Path))
	}
	res := &Result{Graph: g, Files: files, Elapsed: time.Since(start)}
	mbps := float64(g.Bytes) / 1e6 / max(g.Elapsed.Seconds(), 1e-9)
	log.Info("ingested",
		"file", g.File, "format", g.Format, "n", g.Edges.N, "m", g.Edges.M(),
		"parse_s", runlog.Round3(g.Elapsed.Seconds()), "total_s", runlog.Round3(res.Elapsed.Seconds()),
		"mb_per_s", runlog.Round2(mbps), "out", cfg.OutDir)
	return res, nil
}

// writeIngestOutput writes g into dir in the configured output format.
func writeIngestOutput(cfg *Config, dir string, g *input.LoadedGraph) ([]tables.FileInfo, error) {
	switch cfg.Output {
	case IngestBinary, IngestDIMACS:
		info, err := writeConversion(dir, cfg.Output, g.Edges)
		if err != nil {
			return nil, err
		}
		return []tables.FileInfo{info}, nil
	}
	return tables.WriteGraph(tables.GraphFilesIn(dir, cfg.Tables), g.Edges, g.Vertices, input.Metadata(g),
		tables.WithFormat(cfg.Tables), tables.WithCompression(cfg.Compression), tables.WithBatchRows(cfg.BatchRows),
		tables.WithArcColumns(arcColumns(g)...))
}
