package input

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/pathflow/pathflow/datasets"
	"github.com/pathflow/pathflow/formats"
	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/tables"
	"github.com/pathflow/pathflow/internal/version"
	"github.com/pathflow/pathflow/pipeline/runlog"
	"github.com/pathflow/pathflow/pipeline/stageerr"
)

// Spec says which graph to load and how to read it.
type Spec struct {
	// Path is the input file; Dataset a manifest name used when Path is "";
	// Generate a generator spec (see Generate) used when both are "".
	Path     string
	Dataset  string
	Generate string
	// Format is one of the Format* constants.
	Format string
	// Coordinates is an optional DIMACS .co file.
	Coordinates string
	// Directed, Weighting, Lo, Hi and Seed apply to SNAP edge lists.
	Directed  bool
	Weighting string
	Lo, Hi    int32
	Seed      uint64
	// OSM applies to OpenStreetMap extracts.
	OSM OSMSpec
	// Metric is a second DIMACS file of the network, whose weights are
	// another metric of the same arcs (metric_file.go).
	Metric MetricFileSpec
	// Simplify is "keep" (self-loops and parallel arcs stay) or "reduce"
	// (parallel arcs become one arc of the minimum weight and non-negative
	// self-loops go, see formats.Simplify).
	Simplify string
	// Footprint, when set, is the memory the stage's run takes per vertex
	// and per arc: a graph whose sizes need more than this machine gives
	// is refused with a *NotEnoughMemoryError before the per-vertex
	// arrays are allocated (a generated one before it is generated).
	Footprint Footprint
	// Mirror and Offline configure the dataset fetcher.
	Mirror  string
	Offline bool
	// Tables says when an ingest output is read from its tables rather
	// than its reload file, whose edge list is grouped by source.
	Tables TableUse
}

// TableUse says when LoadTable reads an ingest output's tables instead of
// mapping its reload file, whose arcs are grouped by source.
type TableUse int

const (
	// ReloadFirst maps the reload file where the folder has one.
	ReloadFirst TableUse = iota
	// TablesAlways reads the tables, in the input's arc order: ingest
	// reading an output again keeps it.
	TablesAlways
	// TablesForArcRows reads the tables when the folder holds a geometry
	// table, whose rows, like the edges table's time and length columns,
	// follow the edges table's arc order: places and routes name arcs by
	// those rows. Other folders (no arc has points beyond its ends) map
	// the reload file.
	TablesForArcRows
)

// LoadedGraph is a graph read from an input, with what the outputs record
// about where it came from.
type LoadedGraph struct {
	Edges    *graph.EdgeList
	Vertices *graph.Vertices
	// CSR is Edges in compressed sparse rows when the input held them (a
	// reload file), else nil: see Rows.
	CSR *graph.CSR
	// File is the path read. Name, SHA256 and Format describe the original
	// input: its file name, the checksum of its bytes and its format (for
	// a table input, as recorded by the ingest that wrote the table).
	File   string
	Name   string
	SHA256 string
	Format string
	// Bytes is the size of File.
	Bytes int64
	// Directed and Weighting describe how arcs were formed; WeightUnit
	// names the weights' unit ("ms", "m") where the input says, else "".
	Directed   bool
	Weighting  string
	WeightUnit string
	// Road is what an OpenStreetMap input carries beyond the graph (arc
	// metrics, ways, geometry), nil for other inputs.
	Road *Road
	// MetricFile is the metric of Spec.Metric's file, nil without one.
	MetricFile *MetricFile
	// ArcMetric and ArcMetricUnit name the metric a reload file's arcs
	// carry beside their weights (Edges.Metric and CSR.Metric hold it;
	// ingest stores the one its hierarchy carries), "" for none.
	ArcMetric, ArcMetricUnit string
	// Elapsed is the wall time of reading and parsing.
	Elapsed time.Duration
	// Folder is the ingest output folder a table input was read from
	// (where a stored hierarchy would be), "" for other inputs.
	Folder string
	// listing is Folder's manifest, against which any other file read
	// from the folder (a stored hierarchy) is checked.
	listing *Listing
	// checksum is the graph checksum of checksumOf, when known (see
	// GraphChecksum): recorded in the reload file it was mapped from, or
	// computed once.
	checksum   string
	checksumOf *graph.CSR
}

// LoadGraph reads the input spec describes, reporting progress for long
// inputs. Problems with the input come back as *InputError naming the file.
func LoadGraph(ctx context.Context, spec Spec, log *slog.Logger, progressOut io.Writer, quiet bool) (*LoadedGraph, error) {
	start := time.Now()
	if spec.Path == "" && spec.Dataset == "" && spec.Generate != "" {
		g, err := generateWithin(spec.Generate, spec.Footprint)
		var memErr *stageerr.NotEnoughMemoryError
		if errors.As(err, &memErr) {
			return nil, err
		}
		if err != nil {
			return nil, config.Errorf(KeyInputGenerate, "%v", err)
		}
		log.Info("generated input", "spec", g.Name, "n", g.Edges.N, "m", g.Edges.M())
		return g, nil
	}
	path := spec.Path
	if path != "" {
		if _, err := os.Stat(path); err != nil {
			return nil, &stageerr.InputError{Err: PathError(KeyInputPath, path, err)}
		}
	}
	var manifestEntry *datasets.Dataset
	if path == "" {
		located, d, err := locateDataset(ctx, &spec, log, progressOut)
		if err != nil {
			return nil, &stageerr.InputError{Err: err}
		}
		path, manifestEntry = located, d
	}
	format, rule := spec.Format, "set by "+KeyInputFormat
	if manifestEntry != nil {
		rule = "the dataset manifest"
	}
	if format == "" || format == string(formats.KindAuto) {
		detected, why, err := detectFormat(path)
		if err != nil {
			return nil, &stageerr.InputError{Err: ifChangedSinceIngest(path, err)}
		}
		format, rule = detected, why
	}
	log.Info(fmt.Sprintf("format %s (%s)", format, rule), "file", path)
	if err := checkMetricFileFormat(spec.Metric, format); err != nil {
		return nil, err
	}

	var loaded *LoadedGraph
	var err error
	switch format {
	case string(formats.KindTable):
		loaded, err = LoadTable(path, spec.Tables)
	case string(formats.KindOSM):
		if spec.Simplify == "reduce" {
			return nil, config.Errorf(KeyInputSimplify, "applies to edge lists, not to an OpenStreetMap extract, whose arcs keep their ways")
		}
		loaded, err = loadOSM(ctx, path, spec, log, progressOut, quiet)
	default:
		loaded, err = loadRaw(path, format, spec, log, progressOut, quiet)
	}
	if err != nil {
		return nil, &stageerr.InputError{Err: err}
	}
	// Before anything is allocated per vertex: a DIMACS p line may declare
	// far more vertices than its arcs use.
	if err := CheckMemory(spec.Footprint, loaded.File, int64(loaded.Edges.N), int64(loaded.Edges.M()), false); err != nil {
		return nil, err
	}
	if format == string(formats.KindDIMACS) {
		loaded.Vertices = formats.DIMACSVertices(loaded.Edges.N)
	}
	if manifestEntry != nil {
		if err := checkCounts(manifestEntry, path, loaded); err != nil {
			return nil, &stageerr.InputError{Err: err}
		}
	}
	if spec.Coordinates != "" {
		if err := loadCoordinates(spec.Coordinates, loaded); err != nil {
			return nil, &stageerr.InputError{Err: err}
		}
	}
	if spec.Metric.File != "" {
		if loaded.MetricFile, err = loadMetricFile(spec.Metric, loaded, log, progressOut, quiet); err != nil {
			return nil, &stageerr.InputError{Err: err}
		}
	}
	mode, err := formats.ParseSimplification(spec.Simplify)
	if spec.Simplify != "" && err != nil {
		return nil, config.Errorf("input.simplify", "%v", err)
	}
	// KeepAll changes nothing: its O(m) check of arcs every reader has
	// already checked is skipped.
	if spec.Simplify != "" && mode != formats.KeepAll {
		simplified, stats, err := formats.Simplify(loaded.Edges, mode)
		if err != nil {
			return nil, &stageerr.InputError{Err: err}
		}
		if stats.SelfLoops > 0 || stats.Parallel > 0 {
			log.Info("simplified", "self_loops_removed", stats.SelfLoops, "parallel_arcs_removed", stats.Parallel)
		}
		if simplified != loaded.Edges {
			loaded.Edges, loaded.CSR = simplified, nil
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	loaded.Elapsed = time.Since(start)
	return loaded, nil
}

// locateDataset resolves spec.Dataset through the manifest and the fetcher,
// filling in the dataset's coordinates file and format. Coordinates are
// optional: when they cannot be had, a warning says why and the graph is
// read without them.
func locateDataset(ctx context.Context, spec *Spec, log *slog.Logger, progressOut io.Writer) (string, *datasets.Dataset, error) {
	d, err := datasets.Lookup(spec.Dataset)
	if err != nil {
		return "", nil, err
	}
	fetcher := &datasets.Fetcher{Mirror: spec.Mirror, Offline: spec.Offline, Progress: progressOut}
	path, err := fetcher.Locate(ctx, d.Graph)
	if err != nil {
		return "", nil, err
	}
	if d.Coordinates != nil && spec.Coordinates == "" {
		co, err := fetcher.Locate(ctx, *d.Coordinates)
		if err != nil {
			log.Warn("dataset coordinates not available; the vertices table has no x and y", "dataset", d.Name, "error", err)
		} else {
			spec.Coordinates = co
		}
	}
	if spec.Format == "" || spec.Format == string(formats.KindAuto) {
		spec.Format = string(d.Format)
	}
	return path, &d, nil
}

// checkCounts compares a parsed dataset with the manifest's published
// vertex and arc counts, so a truncated or substituted download is caught.
func checkCounts(d *datasets.Dataset, path string, g *LoadedGraph) error {
	if d.Nodes == 0 {
		return nil // counts that depend on how the file is read
	}
	arcs := int64(g.Edges.M())
	if !g.Directed && d.Format == formats.KindSNAP {
		arcs = -1 // undirected reading doubles arcs; the published count is of lines
	}
	if int64(g.Edges.N) != d.Nodes || (arcs >= 0 && arcs != d.Arcs) {
		return fmt.Errorf("%s: dataset %s has %d vertices and %d arcs, the manifest says %d and %d",
			path, d.Name, g.Edges.N, g.Edges.M(), d.Nodes, d.Arcs)
	}
	return nil
}

// detectFormat picks a reader for path by its content first and its name
// only to break ties (see formats.Detect). It returns the format and the
// rule that decided it, for the log.
func detectFormat(path string) (format, rule string, err error) {
	det, err := formats.DetectFile(path)
	if err != nil {
		return "", "", err
	}
	switch {
	case det.Kind == "":
		return "", "", fmt.Errorf("%s: cannot tell the format (%s); set %s (%s)", path, det.Rule, KeyInputFormat, strings.Join(formats.GraphNames(), ", "))
	case det.Kind == formats.KindCoordinates:
		return "", "", fmt.Errorf("%s: a DIMACS coordinates file (%s), not a graph: pass it as %s", path, det.Rule, KeyInputCoordinates)
	case det.Kind == formats.KindTable && det.Gzip:
		return "", "", fmt.Errorf("%s: a gzip-compressed table (%s): decompress it first", path, det.Rule)
	}
	return string(det.Kind), det.Rule, nil
}

// loadRaw parses a text or binary input file, hashing its bytes as they are
// read.
func loadRaw(path, format string, spec Spec, log *slog.Logger, progressOut io.Writer, quiet bool) (*LoadedGraph, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	progress := runlog.NewProgress(log, progressOut, quiet, "read "+filepath.Base(path), "bytes", st.Size())
	defer progress.Finish()
	r := newHashedReader(f, st.Size(), progress)
	defer r.Close()

	loaded := &LoadedGraph{File: path, Name: filepath.Base(path), Format: format, Bytes: st.Size(), Directed: true, Weighting: "file"}
	reader, ok := formats.Lookup(format)
	if !ok || !reader.Graph || reader.Read == nil {
		return nil, fmt.Errorf("%s: unknown input format %q", path, format)
	}
	var opts formats.ReadOptions
	if reader.Kind == formats.KindSNAP {
		w, err := formats.ParseWeighting(spec.Weighting)
		if err != nil {
			return nil, err
		}
		loaded.Directed, loaded.Weighting = spec.Directed, w.String()
		if w == formats.WeightHash {
			loaded.Weighting = fmt.Sprintf("hash(lo=%d,hi=%d,seed=%d)", spec.Lo, spec.Hi, spec.Seed)
		}
		opts.SNAP = formats.SNAPOptions{Directed: spec.Directed, Weighting: w, Lo: spec.Lo, Hi: spec.Hi, Seed: spec.Seed}
	}
	// A DIMACS graph's vertex metadata is made by LoadGraph, once the
	// sizes are checked against the memory.
	loaded.Edges, loaded.Vertices, err = reader.Read(r, path, opts)
	if err != nil {
		return nil, err
	}
	if loaded.SHA256, err = r.Sum(); err != nil {
		return nil, err
	}
	return loaded, nil
}

// loadCoordinates reads a DIMACS .co file into the loaded graph's vertices.
func loadCoordinates(path string, loaded *LoadedGraph) error {
	f, err := os.Open(path)
	if err != nil {
		return PathError(KeyInputCoordinates, path, err)
	}
	defer f.Close()
	co, err := formats.ReadCoordinates(bufio.NewReaderSize(f, 1<<20), path)
	if err != nil {
		return err
	}
	if int32(len(co.X)) != loaded.Edges.N {
		return fmt.Errorf("%s: %d coordinates for a graph of %d vertices", path, len(co.X), loaded.Edges.N)
	}
	if loaded.Vertices == nil {
		loaded.Vertices = &graph.Vertices{}
	}
	loaded.Vertices.X, loaded.Vertices.Y, loaded.Vertices.Geographic = co.X, co.Y, co.Geographic
	return nil
}

// Metadata keys pathflow writes into the schema of every table it produces.
const (
	MetaInputFile   = "pathflow.input_file"
	MetaInputSHA256 = "pathflow.input_sha256"
	MetaInputFormat = "pathflow.input_format"
	MetaN           = "pathflow.n"
	MetaM           = "pathflow.m"
	MetaDirected    = "pathflow.directed"
	MetaWeighting   = "pathflow.weighting"
	MetaVersion     = "pathflow.version"
	// The road network keys, only in the tables of an OpenStreetMap
	// input: the profile, its digest and the weight column's unit.
	MetaOSMProfile       = "pathflow.osm_profile"
	MetaOSMProfileDigest = "pathflow.osm_profile_digest"
	MetaWeightUnit       = tables.MetaWeightUnit
)

// LoadTable reads an ingest output: a folder holding edges.<ext> and
// vertices.<ext>, or the edges file itself with vertices.<ext> beside it;
// from its reload file when the manifest lists one, unless tablesOnly.
// Whichever files it reads are checked against the folder's manifest
// (verify.go): a folder without one is refused.
func LoadTable(path string, use TableUse) (*LoadedGraph, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	dir, edgesFile := path, ""
	if !st.IsDir() {
		dir, edgesFile = filepath.Dir(path), path
	}
	var files tables.GraphFiles
	for _, f := range []tables.Format{tables.Parquet, tables.Arrow} {
		candidate := tables.GraphFilesIn(dir, f)
		if edgesFile != "" && candidate.Edges != edgesFile {
			continue
		}
		if _, err := os.Stat(candidate.Edges); err == nil {
			files = candidate
			break
		}
	}
	if files.Edges == "" {
		return nil, fmt.Errorf("%s: no edges.parquet or edges.arrow (an ingest output) found", path)
	}
	listing, err := ReadIngestListing(dir)
	if err != nil {
		return nil, err
	}
	var g *LoadedGraph
	ok := false
	if !readsTables(use, dir) {
		if g, ok, err = loadReload(listing); err != nil {
			return nil, err
		}
	}
	if !ok {
		if g, err = readTables(files, listing); err != nil {
			return nil, err
		}
	}
	// Either layout: the folder also holds the manifest and any stored
	// hierarchy, which compute looks for there.
	g.Folder, g.listing = dir, listing
	return g, nil
}

// readsTables reports whether LoadTable reads the tables of the ingest
// output in dir rather than its reload file, as use says.
func readsTables(use TableUse, dir string) bool {
	switch use {
	case TablesAlways:
		return true
	case TablesForArcRows:
		for _, f := range []tables.Format{tables.Parquet, tables.Arrow} {
			if _, err := os.Stat(tables.GeometryFileIn(dir, f)); err == nil {
				return true
			}
		}
	}
	return false
}

// readTables reads the graph of an ingest output from its tables, checked
// against listing as they are decoded.
func readTables(files tables.GraphFiles, listing *Listing) (*LoadedGraph, error) {
	var (
		e    *graph.EdgeList
		vs   *graph.Vertices
		meta map[string]string
	)
	err := listing.VerifiedRead([]string{files.Edges, files.Vertices}, func() (err error) {
		e, vs, meta, err = tables.ReadGraph(files)
		return err
	})
	if err != nil {
		return nil, err
	}
	edges, err := os.Stat(files.Edges)
	if err != nil {
		return nil, err
	}
	return &LoadedGraph{
		Edges:      e,
		Vertices:   vs,
		File:       files.Edges,
		Name:       meta[MetaInputFile],
		SHA256:     meta[MetaInputSHA256],
		Format:     meta[MetaInputFormat],
		Bytes:      edges.Size(),
		Directed:   meta[MetaDirected] != "false",
		Weighting:  meta[MetaWeighting],
		WeightUnit: meta[MetaWeightUnit],
	}, nil
}

// Metadata is the schema metadata of tables derived from g. It holds
// no timestamps, so the same input gives byte-identical outputs.
func Metadata(g *LoadedGraph) map[string]string {
	meta := map[string]string{
		MetaInputFile:   g.Name,
		MetaInputSHA256: g.SHA256,
		MetaInputFormat: g.Format,
		MetaN:           strconv.Itoa(int(g.Edges.N)),
		MetaM:           strconv.Itoa(g.Edges.M()),
		MetaDirected:    strconv.FormatBool(g.Directed),
		MetaWeighting:   g.Weighting,
		MetaVersion:     version.Version,
	}
	if g.Road != nil {
		meta[MetaOSMProfile], meta[MetaOSMProfileDigest] = g.Road.Profile, g.Road.ProfileDigest
	}
	if g.WeightUnit != "" {
		meta[MetaWeightUnit] = g.WeightUnit
	}
	if m := g.MetricFile; m != nil {
		meta[MetaMetricFile], meta[MetaMetricFileSHA256] = filepath.Base(m.File), m.SHA256
	}
	return meta
}

// Stem names an input for default output folders: "rome99" for
// rome99.gr, "NY" for the dataset NY.
func Stem(spec Spec) string {
	if spec.Path == "" && spec.Dataset == "" {
		kind, _, _ := strings.Cut(spec.Generate, ":")
		return kind
	}
	if spec.Path == "" {
		return spec.Dataset
	}
	base := filepath.Base(strings.TrimSuffix(spec.Path, string(filepath.Separator)))
	for _, ext := range []string{".gz", ".bz2", ".pbf", ".osm", ".gr", ".txt", ".bin", ".arrow", ".parquet"} {
		base = strings.TrimSuffix(base, ext)
	}
	return base
}

// Listing is the manifest of the ingest output the graph was read from,
// nil when it was not read from one: the stored hierarchy beside the
// tables is checked against it too.
func (g *LoadedGraph) Listing() *Listing { return g.listing }
