package compute

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/resultfiles"
	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/internal/routes"
	"github.com/pathflow/pathflow/pipeline/input"
	"github.com/pathflow/pathflow/pipeline/runlog"
	"github.com/pathflow/pathflow/pipeline/stageerr"
)

// newPathPairsRun reads the path requests of compute.path_pairs: its
// searches are the file's distinct sources, in increasing id order
// (pairList.group), each a whole tree, so that a source listed for many
// targets is searched once.
func newPathPairsRun(cfg *Config, g *input.LoadedGraph, log *slog.Logger) (*computeRun, error) {
	if cfg.Shard.Sharded() {
		return nil, config.Errorf(KeyPathPairs, "path requests are answered in one run: leave %s and %s unset", KeyShard, KeyShards)
	}
	names := VertexNames{IDs: input.NewVertexIDs(g.Edges.N, g.Vertices), Original: cfg.OriginalIDs}
	list, err := readPairList(KeyPathPairs, cfg.PathPairs, names)
	if err != nil {
		return nil, err
	}
	if _, err := list.others.OutputFields("the path requests ("+KeyPathPairs+")", list.len(),
		resultfiles.ColCost, resultfiles.ColVertices, resultfiles.ColTime, resultfiles.ColLength, "geometry", "bbox"); err != nil {
		list.others.Release()
		return nil, &stageerr.InputError{Err: err}
	}
	list.group()
	return &computeRun{cfg: cfg, log: log, graph: g, ids: names.IDs, sources: list.sources, list: list, pathRequests: true}, nil
}

// executePathPairs searches the whole tree of every source of the path
// requests, reads each request's path off its source's distances as the
// tree arrives (routes.Tracer), and writes the paths table in file order
// and the vertices the paths name into dir.
func (r *computeRun) executePathPairs(ctx context.Context, be backend.Backend, req backend.Request, dir string, meta map[string]string, progressOut io.Writer, stages map[string]float64) error {
	list := r.list
	progress := runlog.NewProgress(r.log, progressOut, r.cfg.Log.Quiet, "compute", "sources", int64(len(list.sources)))
	answers, err := newPathAnswers(list, r.routes, req.Edges, req.CSR)
	if err != nil {
		progress.Finish()
		return &stageerr.InputError{Err: err}
	}
	// Distances alone: the paths are read off them, which costs less than
	// the whole parents of every tree.
	shape := results.Shape{Sources: list.sources, Columns: results.ColumnsOf(), MaxDistance: results.NoCutoff}
	start := time.Now()
	if err := r.searchSeeds(ctx, be, req, shape, progress, answers); err != nil {
		return err
	}
	stages["compute"] = time.Since(start).Seconds()
	progress.Finish()
	if err := answers.Close(); err != nil {
		return &stageerr.OutputError{Err: err}
	}
	if n := answers.treesBuilt.Load(); n > 0 {
		r.log.Info("path requests: sources whose paths needed the whole tree (arcs of weight zero)", "sources", n)
	}
	begin := time.Now()
	r.pathRows = answers.rows
	fi, err := r.writePathTable(dir, meta, answers.rows, list.others)
	if err != nil {
		return &stageerr.OutputError{Err: err}
	}
	named := resultfiles.NewVertexSet(int(r.graph.Edges.N))
	named.AddAll(list.sources)
	vertices, err := r.writeNamedVertices(dir, meta, named)
	if err != nil {
		return &stageerr.OutputError{Err: err}
	}
	stages["write_tail"] = time.Since(begin).Seconds()
	r.rows = fi.Rows
	r.files = append(r.files, fi, vertices)
	return nil
}

// pathAnswers is the consumer of a path request run's blocks: each
// source's whole row of distances, from which the paths of its requests
// are read into their rows (file order). O(pairs + path lengths) memory.
type pathAnswers struct {
	list    *pairList
	tracers sync.Pool // of *routes.Tracer, one per goroutine at a time
	rows    []resultfiles.PathRow
	sources atomic.Int64 // answered so far
	// treesBuilt counts the sources whose walk back looped.
	treesBuilt atomic.Int64
}

// newPathAnswers returns the consumer of the searches of list over the
// graph of edges (csr: the same grouped by source), whose arcs ix indexes
// (nil: indexed here).
func newPathAnswers(list *pairList, ix *routes.Index, edges *graph.EdgeList, csr *graph.CSR) (*pathAnswers, error) {
	if ix == nil {
		var err error
		if ix, err = routes.NewIndex(routes.Network{Edges: edges}); err != nil {
			return nil, err
		}
	}
	a := &pathAnswers{list: list, rows: make([]resultfiles.PathRow, list.len())}
	first := routes.NewTracer(ix, csr)
	a.tracers.New = func() any { return first.Fork() }
	return a, nil
}

// Put reads the paths of the block's sources and releases it. Safe for
// concurrent use: every row belongs to one source. O(path lengths x
// in-degree).
func (a *pathAnswers) Put(rows *results.Rows) error {
	defer rows.Release()
	if rows.Sparse() || rows.Offsets != nil {
		return fmt.Errorf("pipeline: path requests need whole rows of distances")
	}
	tracer := a.tracers.Get().(*routes.Tracer)
	defer a.tracers.Put(tracer)
	built := tracer.TreesBuilt()
	dist := rows.Distances()
	for i := range rows.Len() {
		k := rows.First + i
		source := rows.Sources[i]
		lo, hi := rows.Span(i)
		row := dist.Slice(lo, hi)
		for j, at := range a.list.rows[k] {
			target := a.list.targets[k][j]
			vertices, cost, ok := tracer.Path(nil, source, target, row)
			if !ok {
				vertices = nil
			}
			a.rows[at] = resultfiles.PathRow{Source: source, Target: target, Cost: cost, Vertices: vertices}
		}
	}
	a.treesBuilt.Add(int64(tracer.TreesBuilt() - built))
	a.sources.Add(int64(rows.Len()))
	return nil
}

// Close checks that every source was answered.
func (a *pathAnswers) Close() error {
	if n := a.sources.Load(); n != int64(len(a.list.sources)) {
		return fmt.Errorf("pipeline: %d of the path requests' %d sources answered", n, len(a.list.sources))
	}
	return nil
}

// Abort drops the answers.
func (a *pathAnswers) Abort() { a.rows = nil }
