package compute

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"slices"
	"time"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/internal/resultfiles"
	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/internal/routes"
	"github.com/pathflow/pathflow/internal/tables"
	"github.com/pathflow/pathflow/internal/version"
	"github.com/pathflow/pathflow/pipeline/input"
	"github.com/pathflow/pathflow/pipeline/output"
	"github.com/pathflow/pathflow/pipeline/runlog"
	"github.com/pathflow/pathflow/pipeline/stageerr"
)

// Result schema metadata keys written by the compute stage, beside the
// input keys of input.Metadata. They hold what the config and the input
// determine, never facts of the run (backend, device, workers, the
// algorithm and variant a backend resolved, times, hosts): the same input
// and settings give the same bytes on a CPU host and a GPU host. Those
// facts go to manifest.json.
const (
	// MetaAlgorithm and MetaVariant are compute.algorithm and
	// compute.variant as configured ("auto", ""): the manifest names what
	// the backend ran.
	MetaAlgorithm    = "pathflow.algorithm"
	MetaVariant      = "pathflow.variant"
	MetaConfigSHA256 = "pathflow.config_sha256"
	MetaVertexIDBase = "pathflow.vertex_id_base"
	MetaLayout       = "pathflow.layout"
	MetaTargets      = "pathflow.targets"
	MetaMaxDistance  = "pathflow.max_distance"
)

// Result summarises a compute run.
type Result struct {
	// Skipped is true when skip_if_unchanged found the outputs current.
	Skipped  bool
	Manifest *output.Manifest
}

// Run runs the configured algorithm and writes distances, parents,
// optional paths and summary tables and the run manifest into cfg.OutDir.
// The folder appears, or replaces an older one, only when complete: every
// file is written inside a temporary folder beside it, and one rename (or
// swap, over an older output) commits them all. A folder that holds files
// pathflow did not write is refused before any work (output.OwnerCheck), and
// a run whose folder another run committed meanwhile commits nothing and
// returns a *SupersededError (output.Owned.Commit). An output folder that is,
// holds or lies inside a file or folder the run reads is refused first
// (output.OverlapCheck).
func Run(ctx context.Context, cfg *Config, log *slog.Logger, progressOut io.Writer) (*Result, error) {
	startedAt := time.Now()
	if err := output.OverlapCheck(cfg.OutDir, cfg.readPaths()); err != nil {
		return nil, err
	}
	var warmup *backendWarmup
	if warmsBeforeLoad(cfg) {
		warmup = startWarmup(backend.Lookup, cfg.Device.Devices)
	}
	defer func() { warmup.release(log) }()
	cfg, err := withInputFilesChecksum(cfg)
	if err != nil {
		return nil, err
	}
	if cfg.Finalize {
		return Finalize(ctx, cfg, log, progressOut)
	}
	start, err := startComputeOutput(cfg)
	if err != nil {
		return nil, err
	}
	stages := map[string]float64{}
	spec := cfg.Input
	spec.Footprint = input.ComputeFootprint
	// Places and routes name arcs by their rows in the edges table, which
	// the reload file regroups by source: where arcs have points of their
	// own (a geometry table), such runs read the tables.
	if cfg.Places.Enabled() || cfg.writesPaths() {
		spec.Tables = input.TablesForArcRows
	}
	g, err := input.LoadGraph(ctx, spec, log, progressOut, cfg.Log.Quiet)
	if err != nil {
		return nil, err
	}
	if g, err = withRunMetric(ctx, cfg, spec, g, log, progressOut); err != nil {
		return nil, err
	}
	stages["load"] = g.Elapsed.Seconds()
	log.Info("graph loaded", "file", g.File, "n", g.Edges.N, "m", g.Edges.M(), "load_s", runlog.Round3(g.Elapsed.Seconds()))

	if m, ok := currentOutput(cfg, g.SHA256, log); ok {
		return &Result{Skipped: true, Manifest: m}, nil
	}
	cfg = shardPlanConfig(cfg, g.Edges)

	run, err := newComputeRun(cfg, g, log)
	if err != nil {
		return nil, err
	}
	if len(cfg.Metrics) > 0 {
		if run.metric, err = loadMetric(g, cfg.Metrics[0]); err != nil {
			return nil, err
		}
	}
	if run.list != nil {
		defer run.list.others.Release()
	}
	if cfg.writesPaths() {
		if run.routes, err = roadRoutes(g); err != nil {
			return nil, err
		}
	}
	var placed *placesRun
	if cfg.Places.Enabled() {
		if placed, err = preparePlaces(cfg, g, log, stages); err != nil {
			return nil, err
		}
		defer placed.release()
		if placed.tripSeeds != nil {
			run.sources, run.targets, run.sourceTargets = placed.tripSeeds.Sources, nil, placed.tripSeeds.Targets
		} else {
			run.sources, run.targets = placed.seeds.Sources, placed.seeds.Targets
		}
		if len(run.sources) == 0 || (placed.seeds != nil && len(run.targets) == 0) {
			// No place snapped: nothing is searched, but the run is
			// planned as any other, over one vertex.
			run.sources, run.targets, run.sourceTargets = []int32{0}, []int32{0}, nil
		}
	}
	began := time.Now()
	planned := func(p Plan) { warmup = warmPlanned(warmup, cfg, p, backend.Lookup) }
	plan, planCfg, stored, err := planCompute(cfg, g, run, stages, planned, log)
	if err != nil {
		return nil, err
	}
	warmHierarchy(plan, stored)
	warmup.join(stages, log)
	be, err := plan.open(planCfg, g.Edges, len(run.sources), log)
	warmup.release(log)
	if err != nil {
		return nil, err
	}
	defer be.Close()
	stages["backend"] = time.Since(began).Seconds() - stages["hierarchy"]
	alg := plan.Choice.Algorithm
	log.Info("plan", "backend", be.Name(), "device", be.Device(), "why", plan.Why,
		"algorithm", alg.Name, "variant", alg.Variant, "all_pairs", plan.Choice.AllPairs,
		"reason", plan.Choice.Reason, "sources", sourcesSummary(run.sources, run.ids))

	meta := input.Metadata(g)
	meta[MetaAlgorithm] = cfg.Algorithm
	meta[MetaVariant] = cfg.Variant
	meta[MetaConfigSHA256] = cfg.ConfigSHA256
	meta[MetaVertexIDBase] = "0"
	meta[MetaLayout] = cfg.Layout.String()
	meta[MetaTargets] = targetsMeta(run.targets)
	if run.sourceTargets != nil || run.pathRequests {
		meta[MetaTargets] = "pairs"
	}
	meta[MetaMaxDistance] = maxDistanceMeta(cfg.MaxDistance)

	out, err := openOutput(cfg, start, log)
	if err != nil {
		return nil, err
	}
	defer out.Abort()

	began = time.Now()
	csr := g.Rows()
	stages["csr"] = time.Since(began).Seconds()
	req := backend.Request{
		Shape: results.Shape{
			Sources: run.sources, Targets: run.targets, SourceTargets: run.sourceTargets,
			Columns:     results.ColumnsOf().With(results.Parent, run.readsParents()).With(results.Metric, run.metric.Name != "" && cfg.Distances),
			MaxDistance: cfg.MaxDistance,
		},
		Edges: g.Edges, CSR: csr, Choice: plan.Choice, Hierarchy: stored,
	}
	switch {
	case placed != nil && placed.trips != nil:
		err = run.executeTrips(ctx, placed, be, req, out.Path(), meta, progressOut, stages)
	case placed != nil:
		err = run.executePlaces(ctx, placed, be, req, out.Path(), meta, progressOut, stages)
	case run.pathRequests:
		err = run.executePathPairs(ctx, be, req, out.Path(), meta, progressOut, stages)
	default:
		err = run.execute(ctx, be, req, out.Path(), meta, progressOut, stages)
	}
	if err != nil {
		return nil, err
	}

	m := &output.Manifest{
		Version: version.Version, StartedAt: output.Stamp(startedAt), Host: output.HostName(), InputFile: g.Name, InputSHA256: g.SHA256, ConfigSHA256: cfg.ConfigSHA256,
		Backend: be.Name(), Device: be.Device(), Algorithm: alg.Name, Variant: alg.Variant,
		Reason: plan.Choice.Reason, BackendReason: plan.Why, Workers: cfg.Workers, Devices: cfg.Device.Devices,
		N: g.Edges.N, M: g.Edges.M(), Sources: len(run.sources),
		StagesSeconds: stages, Files: output.ManifestFiles(out.Path(), run.files), PeakRSSBytes: peakRSS(),
		RunFacts: run.facts.all(),
	}
	if len(m.RunFacts) > 0 {
		log.Info("backend facts", "facts", m.RunFacts)
	}
	if len(run.summary) <= 4096 {
		for _, row := range run.summary {
			m.Reachable = append(m.Reachable, row.Reachable)
		}
	}
	m.FinishedAt = output.Stamp(time.Now())
	begin := time.Now()
	if err := commitOutput(ctx, cfg, out, m, log); err != nil {
		return nil, err
	}
	log.Info("computed", "out", cfg.OutDir, "sources", len(run.sources), "rows", run.rows,
		"compute_s", runlog.Round3(stages["compute"]), "write_tail_s", runlog.Round3(stages["write_tail"]),
		"commit_s", runlog.Round3(time.Since(begin).Seconds()))
	return &Result{Manifest: m}, nil
}

// computeRun carries one run's state between its steps.
type computeRun struct {
	cfg     *Config
	log     *slog.Logger
	graph   *input.LoadedGraph
	ids     *input.VertexIDs
	sources []int32
	targets []int32 // nil: every vertex
	// sourceTargets holds each source's own targets (a pair list's, a
	// list of trips' seeds); targets is nil then.
	sourceTargets [][]int32
	// list is the pair list of compute.pairs, whose searches are sources
	// and sourceTargets.
	list  *pairList
	pairs [][2]int32
	// pathRequests is true when list holds compute.path_pairs, whose
	// answer is the paths table alone.
	pathRequests bool
	// tripRoutes is compute.path_pairs read as trips between places
	// (pathRequestsAreTrips); list is nil then.
	tripRoutes *tripRoutesRun
	// routes is the index of a road network's routes, nil unless the run
	// writes paths on geographic vertices (roadRoutes).
	routes *routes.Index
	// metric is the column of the metric reported beside the distance
	// (compute.metrics, loadMetric); zero for none.
	metric resultfiles.MetricColumn

	files    []tables.FileInfo
	rows     int64
	summary  []resultfiles.SummaryRow
	pathRows []resultfiles.PathRow
	facts    runFacts
}

func newComputeRun(cfg *Config, g *input.LoadedGraph, log *slog.Logger) (*computeRun, error) {
	if cfg.PathPairs != "" {
		return newPathPairsRun(cfg, g, log)
	}
	n := g.Edges.N
	names := VertexNames{IDs: input.NewVertexIDs(n, g.Vertices), Original: cfg.OriginalIDs}
	list, sources, targets, err := runVertices(cfg, names)
	if err != nil {
		return nil, err
	}
	pairs, err := names.Pairs(KeyPaths, cfg.Pairs)
	if err != nil {
		return nil, err
	}
	if old := LegacyPairs(cfg.Pairs); len(old) > 0 {
		log.Warn(fmt.Sprintf("%s: %q: a pair written source-target reads like a range; write source%starget (the old form is still read, as a pair)",
			KeyPaths, old, PairSeparator))
	}
	for _, p := range pairs {
		if !slices.Contains(sources, p[0]) && (list == nil || !slices.Contains(list.source, p[0])) {
			return nil, config.Errorf(KeyPaths, "the source of the pair from %s to %s is not among %s",
				names.IDs.Describe(p[0]), names.IDs.Describe(p[1]), KeySources)
		}
	}
	if cfg.Matrix && (len(sources) != int(n) || targets != nil || !isIdentity(sources)) {
		return nil, config.Errorf(output.KeyOutputFormat, "distmatrix writes whole all-pairs matrices: it needs %s: [all] and %s: [all]", KeySources, KeyTargets)
	}
	run := &computeRun{cfg: cfg, log: log, graph: g, ids: names.IDs, targets: targets}
	if list != nil {
		// Refused before any search rather than once the table is due.
		if _, err := list.outputFields(run.readsParents(), cfg.metricName()); err != nil {
			list.others.Release()
			return nil, &stageerr.InputError{Err: err}
		}
		pairs = list.keepShard(cfg.Shard, pairs, log)
		list.group()
		run.list, sources, run.sourceTargets = list, list.sources, list.targets
	} else if !cfg.Places.Enabled() { // places are cut into shards by place, not by source
		sources, pairs = shardBlock(cfg.Shard, sources, pairs, log)
	}
	run.sources, run.pairs = sources, pairs
	return run, nil
}

// runVertices reads the rows and columns of the result: compute.sources
// and compute.targets, or the pair list of compute.pairs (list; sources
// and targets nil).
func runVertices(cfg *Config, names VertexNames) (list *pairList, sources, targets []int32, err error) {
	if cfg.PairList != "" {
		list, err := readPairList(KeyPairList, cfg.PairList, names)
		return list, nil, nil, err
	}
	if sources, err = names.Sources(KeySources, cfg.Sources); err != nil {
		return nil, nil, nil, err
	}
	if targets, err = names.Targets(KeyTargets, cfg.Targets); err != nil {
		return nil, nil, nil, err
	}
	return nil, sources, targets, nil
}

// readsParents reports whether an output reads the parents: the
// distances table with compute.parents, or the paths. A table of places
// has none: its rows are places, not vertices. A run that writes
// only the summary asks the backend for none, and so spares their memory
// and their writes in the search.
func (r *computeRun) readsParents() bool {
	return r.cfg.Parents && !r.cfg.Places.Enabled() && !r.pathRequests && (r.cfg.Distances || len(r.pairs) > 0)
}

// summaryOnly reports whether the run's blocks go to the summary alone
// (output.distances off, no matrix, no paths): the backend is then asked
// for rows as their summaries (results.Shape.SummaryOnly), reduced where
// they are computed, on the device for the GPU, instead of their cells.
func (r *computeRun) summaryOnly() bool {
	return !r.cfg.Distances && !r.cfg.Matrix && len(r.pairs) == 0
}

func isIdentity(sources []int32) bool {
	for i, s := range sources {
		if int(s) != i {
			return false
		}
	}
	return true
}

func (r *computeRun) tableOptions() []tables.Option {
	return []tables.Option{
		tables.WithFormat(r.cfg.OutFormat), tables.WithCompression(r.cfg.Compression),
		tables.WithZstdLevel(r.cfg.CompressionLevel), tables.WithBatchRows(r.cfg.BatchRows),
		tables.WithPartRows(r.cfg.PartRows), tables.WithConcurrency(r.cfg.Workers),
	}
}

// execute runs the backend into the distances consumer, which encodes on
// every core while the backend computes, then writes the paths and summary
// tables into dir.
func (r *computeRun) execute(ctx context.Context, be backend.Backend, req backend.Request, dir string, meta map[string]string, progressOut io.Writer, stages map[string]float64) error {
	progress := runlog.NewProgress(r.log, progressOut, r.cfg.Log.Quiet, "compute", "sources", int64(len(r.sources)))
	if req.Choice.AllPairs { // rows arrive only once the whole matrix is done
		pivots := runlog.NewProgress(r.log, progressOut, r.cfg.Log.Quiet, "all pairs", backend.ProgressUnit(req.Choice), 0)
		defer pivots.Finish()
		req.Progress = pivots.Report
	}
	req.SummaryOnly = r.summaryOnly()
	out, err := r.outputs(req, dir, meta, progress)
	if err != nil {
		return &stageerr.OutputError{Err: err}
	}
	// The whole vertices table depends on the graph alone: it is written
	// while the backend computes, and waited for on every path out. A
	// subset is written once the outputs have named their vertices.
	var vertices *pendingTable
	if out.named == nil {
		vertices = r.startVertices(dir, meta)
		defer vertices.wait()
	}
	// compute.paths reads whole parent rows: the backend is then sent no
	// targets, and its full blocks are narrowed once the paths are read.
	narrower, sent := narrowing(req, len(r.pairs) > 0, out.table)
	// Rows sent whole for a narrowed result reach the summary as cells, to
	// be narrowed first.
	sent.SummaryOnly = req.SummaryOnly && sent.Narrowed() == req.Narrowed()
	var consumer results.Consumer = narrower
	if out.paths != nil {
		consumer = results.Fanout{out.paths, narrower}
	}
	sink := func(rows *results.Rows) error {
		progress.Add(int64(rows.Len()))
		if err := consumer.Put(rows); err != nil {
			return &stageerr.OutputError{Err: err}
		}
		return nil
	}

	// Only a long table of every vertex with a cutoff (or its summary
	// alone), and no paths, takes rows as their cells within the cutoff
	// (backend.Request.SparseRows).
	sent.CutoffCells = out.matrix == nil && out.paths == nil && r.cfg.Layout == resultfiles.Long
	sent.Facts = r.facts.add
	start := time.Now()
	err = be.Run(ctx, sent, sink)
	stages["compute"] = time.Since(start).Seconds()
	if err != nil {
		consumer.Abort()
		progress.Finish()
		return classifyRunError(nameCycleVertex(err, r.ids))
	}
	begin := time.Now()
	err = consumer.Close()
	progress.Finish()
	if err != nil {
		return &stageerr.OutputError{Err: err}
	}
	if out.summary != nil {
		r.summary = out.summary.Rows()
	}
	if out.paths != nil {
		r.pathRows = out.paths.Rows()
	}
	var fi tables.FileInfo
	if vertices != nil {
		fi, err = vertices.wait()
	} else {
		fi, err = r.writeNamedVertices(dir, meta, out.named)
	}
	if err != nil {
		return &stageerr.OutputError{Err: err}
	}
	stages["write_tail"] = time.Since(begin).Seconds()
	files := out.files()
	for _, f := range files {
		r.rows += f.Rows // the result's rows, not the vertices table's
	}
	r.files = append(files, fi)

	begin = time.Now()
	if err := r.writeExtras(dir, meta); err != nil {
		return &stageerr.OutputError{Err: err}
	}
	stages["extras"] = time.Since(begin).Seconds()
	return nil
}

// runOutputs are the consumers of a run's blocks: the distances table
// (parts) or the distance matrix, the summary beside the table, and the
// paths of compute.paths.
type runOutputs struct {
	parts *resultfiles.ResultSink // nil without distances (output.distances: false)
	// pairList writes a pair list's distances table instead of parts.
	pairList *pairAnswers
	matrix   *resultfiles.DistanceMatrixWriter
	summary  *resultfiles.SummarySink // nil beside a distance matrix
	paths    *resultfiles.PathSink    // nil without compute.paths
	// named, unless nil, gathers the vertices the outputs name, which the
	// vertices table then holds instead of every vertex (namedVertices).
	named *resultfiles.VertexSet
	// table takes the blocks narrowed to the run's targets: parts or
	// matrix, then summary, then what adds the cells' vertices to named.
	table results.Fanout
}

// outputs opens what the run's blocks go to.
func (r *computeRun) outputs(req backend.Request, dir string, meta map[string]string, progress *runlog.Progress) (*runOutputs, error) {
	out := &runOutputs{}
	if len(r.pairs) > 0 {
		out.paths = resultfiles.NewPathSink(r.pairs, req.Wants(results.Parent))
	}
	if r.cfg.Matrix {
		w, err := resultfiles.NewDistanceMatrixWriter(filepath.Join(dir, output.MatrixName), int(req.Edges.N))
		if err != nil {
			return nil, err
		}
		out.matrix, out.table = w, results.Fanout{w}
		return out, nil
	}
	shape := resultfiles.ResultShape{Shape: req.Shape, Width: int(req.Edges.N), Layout: r.cfg.Layout,
		WithOriginal: r.cfg.OriginalIDs, Original: r.graph.Vertices, Metric: r.metric}
	summary, err := resultfiles.NewSummarySink(shape)
	if err != nil {
		return nil, err
	}
	out.summary = summary
	switch {
	case r.cfg.Distances && r.list != nil:
		table := &pairTable{dir: filepath.Join(dir, output.DistancesDir), meta: meta, opts: r.tableOptions(), metric: r.metric}
		if r.cfg.OriginalIDs {
			table.ids = r.ids
		}
		out.pairList = newPairAnswers(r.list, req.MaxDistance, req.Wants(results.Parent), table)
		out.table = append(out.table, out.pairList)
	case r.cfg.Distances:
		parts, err := resultfiles.NewResultSink(filepath.Join(dir, output.DistancesDir), shape, meta, progress.Written, r.tableOptions()...)
		if err != nil {
			return nil, err
		}
		out.parts = parts
		out.table = append(out.table, parts)
	}
	out.table = append(out.table, summary)
	if !r.namedVertices(shape) {
		return out, nil
	}
	out.named = resultfiles.NewVertexSet(shape.Width)
	out.named.AddAll(r.sources)
	if r.cfg.Distances {
		cells, err := resultfiles.NewCellVertices(shape, out.named)
		if err != nil {
			return nil, err
		}
		out.table = append(out.table, cells)
	}
	return out, nil
}

// namedVertices reports whether the vertices table holds only the
// vertices the outputs name, rather than every vertex: when the
// distances table (of shape) does not name them all or is not written.
// A shard writes every vertex, since finalize keeps one shard's table for
// the whole dataset.
func (r *computeRun) namedVertices(shape resultfiles.ResultShape) bool {
	if r.cfg.Shard.Sharded() {
		return false
	}
	return !r.cfg.Distances || !shape.NamesEveryVertex()
}

// files returns the files of the distances table or the matrix; none
// without distances.
func (o *runOutputs) files() []tables.FileInfo {
	switch {
	case o.matrix != nil:
		path, rows, bytes, sum := o.matrix.File()
		return []tables.FileInfo{{Path: path, Rows: rows, Bytes: bytes, SHA256: sum}}
	case o.parts != nil:
		return o.parts.Files()
	case o.pairList != nil:
		return o.pairList.Files()
	}
	return nil
}

// writeExtras writes the optional paths and summary tables.
func (r *computeRun) writeExtras(dir string, meta map[string]string) error {
	ext := r.cfg.OutFormat.Ext()
	ids := resultfiles.OriginalIDs{Write: r.cfg.OriginalIDs, Vertices: r.graph.Vertices}
	if len(r.pairs) > 0 {
		fi, err := r.writePathTable(dir, meta, r.pathRows, tables.OtherColumns{})
		if err != nil {
			return err
		}
		r.files = append(r.files, fi)
	}
	if r.cfg.Summary {
		fi, err := resultfiles.WriteSummary(filepath.Join(dir, output.SummaryName+ext), r.summary, ids, meta, r.tableOptions()...)
		if err != nil {
			return err
		}
		r.files = append(r.files, fi)
	}
	return nil
}

// classifyRunError keeps output, config and cancellation errors as they
// are, reports a request the backend does not implement as a problem of
// compute.variant, and marks everything else a compute error.
func classifyRunError(err error) error {
	switch {
	case stageerr.KindOf(err) != stageerr.Internal:
		return err
	case errors.Is(err, backend.ErrUnsupported):
		return config.Errorf(KeyVariant, "%v", err)
	default:
		return &stageerr.ComputeError{Err: err}
	}
}
