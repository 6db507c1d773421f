package pipeline

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/pathflow/pathflow/formats"
	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/internal/tables"
)

// Ingest output keys (output.compression is shared with compute).
const (
	KeyOutputDir       = "output.dir"
	KeyOutputFormat    = "output.format"
	KeyOutputBatchRows = "output.batch_rows"
)

// Ingest output formats: the two tables formats, and conversions that
// write the graph as one file for other tools.
const (
	IngestParquet = "parquet"
	IngestArrow   = "arrow"
	IngestBinary  = string(formats.KindBinary)
	IngestDIMACS  = string(formats.KindDIMACS)
)

// IngestKeys declares every key the ingest command reads.
func IngestKeys() []config.Key {
	return append(InputKeys(),
		config.Key{Name: KeyOutputDir, Default: "", Path: true, Flag: "out", Usage: "output folder (default out/<input name>)"},
		config.Key{Name: KeyOutputFormat, Default: IngestParquet, Flag: "output-format",
			Usage: "parquet (edges.parquet, vertices.parquet), arrow (IPC files .arrow), or a conversion to one file: binary (graph.bin) or dimacs (graph.gr)"},
		config.Key{Name: KeyCompression, Default: "default", Flag: "compression",
			Usage: "tables: zstd, lz4, snappy (parquet only) or none; default: snappy for parquet, none for arrow"},
		config.Key{Name: KeyOutputBatchRows, Default: tables.DefaultBatchRows, Usage: "rows per record batch / row group"},
		reloadKey(),
		overwriteKey(),
		ingestHierarchyKey("hierarchy"),
		hierarchyTablesKey("hierarchy-tables"),
	)
}

// IngestConfig is a validated ingest run.
type IngestConfig struct {
	Input  InputSpec
	OutDir string
	// Output is one of the Ingest* formats; for the two table formats,
	// Tables and Compression say how to write them.
	Output      string
	Tables      tables.Format
	Compression tables.Compression
	BatchRows   int
	// Reload is output.reload_file: write the reload file beside the
	// tables (input_reload.go).
	Reload bool
	// Overwrite is output.overwrite: which folder at OutDir the run may
	// replace (output_owner.go).
	Overwrite string
	// Hierarchy is ingest.hierarchy: auto, on or off
	// (ingest_hierarchy.go).
	Hierarchy string
	// HierarchyTables is ingest.hierarchy_tables: write a stored
	// hierarchy as Parquet tables too, beside its mapped file.
	HierarchyTables bool
	Log             LogSettings
	// ConfigFile is the config file the settings were read from, "" for
	// none: a file the run reads, which output.dir must not replace.
	ConfigFile string
}

// IngestConfigFrom reads and validates the ingest keys.
func IngestConfigFrom(l *config.Loaded) (*IngestConfig, error) {
	vs := l.Values()
	cfg := &IngestConfig{
		Input:           readInputSpec(vs),
		OutDir:          vs.String(KeyOutputDir),
		Output:          vs.OneOf(KeyOutputFormat, IngestParquet, IngestArrow, IngestBinary, IngestDIMACS),
		BatchRows:       vs.Int(KeyOutputBatchRows, 1, 1<<28),
		Reload:          vs.Bool(KeyOutputReload),
		Overwrite:       readOverwrite(vs),
		Hierarchy:       vs.OneOf(KeyIngestHierarchy, HierarchyAuto, HierarchyOn, HierarchyOff),
		HierarchyTables: vs.Bool(KeyIngestHierarchyTables),
		Log:             readLogSettings(vs),
		ConfigFile:      configPath(l),
	}
	codec := vs.OneOf(KeyCompression, "default", "zstd", "lz4", "snappy", "none")
	switch {
	case cfg.Output == IngestArrow && codec == "snappy":
		vs.Fail(KeyCompression, "Arrow IPC files have no snappy codec: use lz4, zstd or none")
	case (cfg.Output == IngestBinary || cfg.Output == IngestDIMACS) && codec != "default":
		vs.Fail(KeyCompression, "applies to parquet and arrow tables, not to a %s file", cfg.Output)
	case (cfg.Output == IngestBinary || cfg.Output == IngestDIMACS) && cfg.Hierarchy == HierarchyOn:
		vs.Fail(KeyIngestHierarchy, "a hierarchy is stored beside parquet or arrow tables, not with a %s file", cfg.Output)
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
			return nil, config.Errorf(KeyCompression, "%v", err)
		}
		cfg.Compression = c
	}
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
// tables, or converts it to one binary or DIMACS file for other tools, with
// a manifest listing them. Beside the tables it stores a contraction
// hierarchy of the graph when ingest.hierarchy asks for one
// (ingest_hierarchy.go). The output folder is written as compute's is:
// in a temporary beside it, committed in one step, replacing only a folder
// that pathflow committed (output.overwrite) and never one the run reads
// from (output_inputs.go); a failed run leaves no folder behind.
func Ingest(ctx context.Context, cfg *IngestConfig, log *slog.Logger, progressOut io.Writer) (*IngestResult, error) {
	start := time.Now()
	if err := overlapCheck(cfg.OutDir, cfg.readPaths()); err != nil {
		return nil, err
	}
	outStart, err := startOutput(cfg.OutDir, cfg.Overwrite)
	if err != nil {
		return nil, err
	}
	spec := cfg.Input
	spec.Tables = true // an ingest output read again keeps its arc order
	spec.Footprint = IngestFootprint
	g, err := LoadGraph(ctx, spec, log, progressOut, cfg.Log.Quiet)
	if err != nil {
		return nil, err
	}
	out, err := outStart.open(log)
	if err != nil {
		return nil, err
	}
	defer out.Abort()
	files, err := writeIngestOutput(cfg, out.Path(), g)
	if err != nil {
		return nil, &OutputError{err}
	}
	hierarchyFiles, hm, err := writeIngestHierarchy(ctx, cfg, out.Path(), g, log)
	if err != nil {
		return nil, err
	}
	files = append(files, hierarchyFiles...)
	if cfg.Reload && (cfg.Output == IngestParquet || cfg.Output == IngestArrow) {
		fi, err := writeReloadFile(out.Path(), g)
		if err != nil {
			return nil, &OutputError{err}
		}
		files = append(files, fi)
	}
	m := &IngestManifest{
		Version: Version, RunID: out.RunID, StartedAt: stamp(start), FinishedAt: stamp(time.Now()), Host: hostName(), InputFile: g.Name, InputSHA256: g.SHA256, InputFormat: g.Format,
		OutputFormat: cfg.Output, N: g.Edges.N, M: g.Edges.M(), Seconds: round3(time.Since(start).Seconds()),
		Files: manifestFiles(out.Path(), files), Hierarchy: hm,
	}
	if err := out.commit(ctx, func(dir string) error { return writeJSON(filepath.Join(dir, ManifestName), m) }); err != nil {
		return nil, err
	}
	for i := range files { // where they are now
		files[i].Path = filepath.Join(cfg.OutDir, filepath.FromSlash(m.Files[i].Path))
	}
	res := &IngestResult{Graph: g, Files: files, Elapsed: time.Since(start)}
	mbps := float64(g.Bytes) / 1e6 / max(g.Elapsed.Seconds(), 1e-9)
	log.Info("ingested",
		"file", g.File, "format", g.Format, "n", g.Edges.N, "m", g.Edges.M(),
		"parse_s", round3(g.Elapsed.Seconds()), "total_s", round3(res.Elapsed.Seconds()),
		"mb_per_s", round2(mbps), "out", cfg.OutDir)
	return res, nil
}

// writeIngestOutput writes g into dir in the configured output format.
func writeIngestOutput(cfg *IngestConfig, dir string, g *LoadedGraph) ([]tables.FileInfo, error) {
	switch cfg.Output {
	case IngestBinary, IngestDIMACS:
		info, err := writeConversion(dir, cfg.Output, g.Edges)
		if err != nil {
			return nil, err
		}
		return []tables.FileInfo{info}, nil
	}
	return tables.WriteGraph(tables.GraphFilesIn(dir, cfg.Tables), g.Edges, g.Vertices, graphMetadata(g),
		tables.WithFormat(cfg.Tables), tables.WithCompression(cfg.Compression), tables.WithBatchRows(cfg.BatchRows))
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
