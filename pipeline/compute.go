package pipeline

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/pathflow/pathflow/internal/atomicfile"
	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/internal/cpu"
	"github.com/pathflow/pathflow/internal/gpu"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/tables"
)

// Result schema metadata keys written by the compute stage, beside the
// input keys of graphMetadata.
const (
	MetaAlgorithm    = "pathflow.algorithm"
	MetaVariant      = "pathflow.variant"
	MetaBackend      = "pathflow.backend"
	MetaDevice       = "pathflow.device"
	MetaConfigSHA256 = "pathflow.config_sha256"
	MetaVertexIDBase = "pathflow.vertex_id_base"
)

// Output names inside the compute output folder.
const (
	DistancesDir = "distances"
	PathsName    = "paths"
	SummaryName  = "summary"
)

// ComputeResult summarises a compute run.
type ComputeResult struct {
	// Skipped is true when skip_if_unchanged found the outputs current.
	Skipped  bool
	Manifest *Manifest
}

// Compute runs the configured algorithm and writes distances, parents,
// optional paths and summary tables and the run manifest into cfg.OutDir.
// The folder appears, or replaces an older one, only when complete.
func Compute(ctx context.Context, cfg *ComputeConfig, log *slog.Logger, progressOut io.Writer) (*ComputeResult, error) {
	stages := map[string]float64{}
	g, err := LoadGraph(ctx, cfg.Input, log, progressOut, cfg.Log.Quiet)
	if err != nil {
		return nil, err
	}
	stages["load"] = g.Elapsed.Seconds()
	log.Info("graph loaded", "file", g.File, "n", g.Edges.N, "m", g.Edges.M(), "load_s", round3(g.Elapsed.Seconds()))

	if cfg.SkipIfSame && upToDate(cfg.OutDir, g.SHA256, cfg.ConfigSHA256) {
		log.Info("outputs are up to date; nothing to do", "out", cfg.OutDir, "key", KeySkipIfUnchanged)
		m, _ := ReadManifest(cfg.OutDir)
		return &ComputeResult{Skipped: true, Manifest: m}, nil
	}

	sources, err := ParseSources(KeySources, cfg.Sources, g.Edges.N)
	if err != nil {
		return nil, err
	}
	pairs, err := ParsePairs(KeyPaths, cfg.Pairs, g.Edges.N)
	if err != nil {
		return nil, err
	}
	for _, p := range pairs {
		if !slices.Contains(sources, p[0]) {
			return nil, config.Errorf(KeyPaths, "the source of pair %d-%d is not among %s", p[0], p[1], KeySources)
		}
	}

	start := time.Now()
	be, reason, err := OpenBackend(cfg.Backend, cfg.Workers)
	if err != nil {
		return nil, err
	}
	defer be.Close()
	stages["backend"] = time.Since(start).Seconds()
	log.Info("backend", "name", be.Name(), "device", be.Device(), "why", reason)

	plan, err := planRun(cfg, g.Edges, be.Name())
	if err != nil {
		return nil, err
	}
	log.Info("algorithm", "name", plan.Algorithm.Name, "variant", plan.Algorithm.Variant,
		"all_pairs", plan.AllPairs, "why", plan.Reason, "sources", sourcesSummary(sources))

	meta := graphMetadata(g)
	meta[MetaAlgorithm] = plan.Algorithm.Name
	meta[MetaVariant] = plan.Algorithm.Variant
	meta[MetaBackend] = be.Name()
	meta[MetaDevice] = be.Device()
	meta[MetaConfigSHA256] = cfg.ConfigSHA256
	meta[MetaVertexIDBase] = "0"

	if parent := filepath.Dir(filepath.Clean(cfg.OutDir)); parent != "" {
		if err := os.MkdirAll(parent, 0o755); err != nil {
			return nil, &OutputError{err}
		}
	}
	out, err := atomicfile.CreateDir(cfg.OutDir)
	if err != nil {
		return nil, &OutputError{err}
	}
	defer out.Abort()

	newRun := func(be backend.Backend, plan Plan) *computeRun {
		return &computeRun{cfg: cfg, log: log, backend: be, plan: plan, graph: g, sources: sources, pairs: pairs, meta: meta, dir: out.Path()}
	}
	run := newRun(be, plan)
	err = run.execute(ctx, progressOut, stages)
	if errors.Is(err, gpu.ErrNeedsInt64) {
		// The GPU's int32 distances cannot hold this graph's: the CPU's
		// int64 arithmetic gives the exact answer instead.
		log.Warn("falling back to the CPU backend", "why", err)
		be = cpu.New(cfg.Workers)
		if plan, err = planRun(cfg, g.Edges, be.Name()); err != nil {
			return nil, err
		}
		meta[MetaAlgorithm], meta[MetaVariant] = plan.Algorithm.Name, plan.Algorithm.Variant
		meta[MetaBackend], meta[MetaDevice] = be.Name(), be.Device()
		run = newRun(be, plan)
		err = run.execute(ctx, progressOut, stages)
	}
	if err != nil {
		return nil, err
	}

	m := &Manifest{
		Version: Version, InputFile: g.Name, InputSHA256: g.SHA256, ConfigSHA256: cfg.ConfigSHA256,
		Backend: be.Name(), Device: be.Device(), Algorithm: plan.Algorithm.Name, Variant: plan.Algorithm.Variant,
		Reason: plan.Reason, N: g.Edges.N, M: g.Edges.M(), Sources: len(sources),
		StagesSeconds: stages, Files: manifestFiles(out.Path(), run.files),
	}
	if len(run.reachable) <= 4096 {
		m.Reachable = run.reachable
	}
	if err := writeManifest(out.Path(), m); err != nil {
		return nil, &OutputError{err}
	}
	if err := out.Commit(); err != nil {
		return nil, &OutputError{err}
	}
	log.Info("computed", "out", cfg.OutDir, "sources", len(sources),
		"compute_s", round3(stages["compute"]), "write_s", round3(stages["write"]))
	return &ComputeResult{Manifest: m}, nil
}

// computeRun carries one run's state between its steps.
type computeRun struct {
	cfg     *ComputeConfig
	log     *slog.Logger
	backend backend.Backend
	plan    Plan
	graph   *LoadedGraph
	sources []int32
	pairs   [][2]int32
	meta    map[string]string
	dir     string

	files     []tables.FileInfo
	reachable []int64
	summary   []tables.SummaryRow
	pathRows  []tables.PathRow
}

func (r *computeRun) tableOptions() []tables.Option {
	return []tables.Option{tables.WithFormat(r.cfg.OutFormat), tables.WithBatchRows(r.cfg.BatchRows), tables.WithPartRows(r.cfg.PartRows)}
}

// execute computes and streams every tree into the distances table, then
// writes the paths and summary tables.
func (r *computeRun) execute(ctx context.Context, progressOut io.Writer, stages map[string]float64) error {
	writer, err := tables.NewResultWriter(filepath.Join(r.dir, DistancesDir), r.cfg.Parents, r.meta, r.tableOptions()...)
	if err != nil {
		return &OutputError{err}
	}
	defer writer.Abort()

	progress := NewProgress(r.log, progressOut, r.cfg.Log.Quiet, "sources", "sources", int64(len(r.sources)))
	var writing time.Duration
	emit := func(t *paths.Tree) error {
		begin := time.Now()
		defer func() { writing += time.Since(begin) }()
		if err := writer.WriteTree(t); err != nil {
			return &OutputError{err}
		}
		r.record(t)
		progress.Add(1)
		return ctx.Err()
	}

	start := time.Now()
	if r.plan.AllPairs {
		err = r.allPairs(ctx, emit)
	} else {
		csr := graph.BuildCSR(r.graph.Edges)
		err = r.backend.MultiSource(ctx, csr, r.sources, r.plan.Algorithm, r.cfg.Parents, emit)
	}
	progress.Finish()
	if err != nil {
		return classifyComputeError(err)
	}
	stages["compute"] = (time.Since(start) - writing).Seconds()

	begin := time.Now()
	if err := writer.Close(); err != nil {
		return &OutputError{err}
	}
	r.files = append(r.files, writer.Files()...)
	if err := r.writeExtras(); err != nil {
		return &OutputError{err}
	}
	stages["write"] = (writing + time.Since(begin)).Seconds()
	return nil
}

// allPairs runs the all-pairs algorithm once and emits the requested rows.
func (r *computeRun) allPairs(ctx context.Context, emit func(*paths.Tree) error) error {
	m, err := r.backend.AllPairs(ctx, r.graph.Edges, r.plan.Algorithm, r.cfg.Parents)
	if err != nil {
		return err
	}
	for _, s := range r.sources {
		if err := emit(m.Row(s)); err != nil {
			return err
		}
	}
	return nil
}

// record keeps what the manifest, summary and paths tables need of a tree.
func (r *computeRun) record(t *paths.Tree) {
	row := tables.Summarize(t)
	r.reachable = append(r.reachable, row.Reachable)
	if r.cfg.Summary {
		r.summary = append(r.summary, row)
	}
	for _, p := range r.pairs {
		if p[0] == t.Source {
			r.pathRows = append(r.pathRows, tables.NewPathRow(t, p[1]))
		}
	}
}

// writeExtras writes the optional paths and summary tables.
func (r *computeRun) writeExtras() error {
	ext := r.cfg.OutFormat.Ext()
	if len(r.pairs) > 0 {
		fi, err := tables.WritePaths(filepath.Join(r.dir, PathsName+ext), r.pathRows, r.meta, r.tableOptions()...)
		if err != nil {
			return err
		}
		r.files = append(r.files, fi)
	}
	if r.cfg.Summary {
		fi, err := tables.WriteSummary(filepath.Join(r.dir, SummaryName+ext), r.summary, r.meta, r.tableOptions()...)
		if err != nil {
			return err
		}
		r.files = append(r.files, fi)
	}
	return nil
}

// classifyComputeError keeps output, config and cancellation errors as
// they are, reports a request the backend does not implement as a problem
// of compute.variant, and marks everything else a compute error.
func classifyComputeError(err error) error {
	switch {
	case ExitCode(err) != ExitInternal:
		return err
	case errors.Is(err, backend.ErrUnsupported):
		return config.Errorf(KeyVariant, "%v", err)
	default:
		return &ComputeError{err}
	}
}
