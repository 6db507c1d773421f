package compute

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/resultfiles"
	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/internal/routes"
	"github.com/pathflow/pathflow/internal/tables"
	"github.com/pathflow/pathflow/pipeline/input"
	"github.com/pathflow/pathflow/pipeline/runlog"
	"github.com/pathflow/pathflow/pipeline/stageerr"
)

// newPathPairsRun reads the path requests of compute.path_pairs: its
// searches are the file's distinct sources, each a whole tree, so that a
// source listed for many targets is searched once, in the order of their
// first rows (searchInFileOrder). A file of trips between places
// (pathRequestsAreTrips) is read and snapped by newTripRoutesRun.
func newPathPairsRun(cfg *Config, g *input.LoadedGraph, log *slog.Logger) (*computeRun, error) {
	if cfg.Shard.Sharded() {
		return nil, config.Errorf(KeyPathPairs, "path requests are answered in one run: leave %s and %s unset", KeyShard, KeyShards)
	}
	trips, err := pathRequestsAreTrips(cfg.PathPairs)
	if err != nil {
		return nil, err
	}
	if trips {
		return newTripRoutesRun(cfg, g, log)
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
	searchInFileOrder(list)
	return &computeRun{cfg: cfg, log: log, graph: g, ids: names.IDs, sources: list.sources, list: list, pathRequests: true}, nil
}

// searchInFileOrder orders the grouped sources of list by their first
// row in the file, so that the rows of the paths table, which keep file
// order, become final from the first on while the searches run, and the
// table is written beside them (executePathPairs). A file that lists a
// source's pairs together, as most do, is then written as fast as it is
// answered. O(sources log sources).
func searchInFileOrder(list *pairList) {
	order := make([]int, len(list.sources))
	for k := range order {
		order[k] = k
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(list.rows[a][0], list.rows[b][0]) })
	sources, targets, rows := slices.Clone(list.sources), slices.Clone(list.targets), slices.Clone(list.rows)
	for i, k := range order {
		list.sources[i], list.targets[i], list.rows[i] = sources[k], targets[k], rows[k]
	}
}

// executePathPairs searches the whole tree of every source of the path
// requests, reads each request's path off its source's distances as the
// tree arrives (routes.Tracer), and writes the paths table in file order,
// each row once its source is answered, beside the searches, and then the
// vertices the paths name into dir.
func (r *computeRun) executePathPairs(ctx context.Context, be backend.Backend, req backend.Request, dir string, meta map[string]string, progressOut io.Writer, stages map[string]float64) error {
	if r.tripRoutes != nil {
		return r.executeTripRoutes(ctx, be, req, dir, meta, progressOut, stages)
	}
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
	var fi, vertices tables.FileInfo
	tail, err := r.searchWhileWriting(ctx, be, req, shape, progress, answers, func() (err error) {
		fi, err = r.writePathTableAsReady(dir, meta, answers.rows, answers.ready, list.others)
		return err
	}, func() (err error) {
		// Every row is final: the vertices the paths name are known.
		r.pathRows = answers.rows
		named := resultfiles.NewVertexSet(int(r.graph.Edges.N))
		named.AddAll(list.sources)
		vertices, err = r.writeNamedVertices(dir, meta, named)
		return err
	}, stages)
	if err != nil {
		return err
	}
	if n := answers.treesBuilt.Load(); n > 0 {
		r.log.Info("path requests: sources whose paths needed the whole tree (arcs of weight zero)", "sources", n)
	}
	stages["write_tail"] = tail
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
	// rowSource[i] is the index in list.sources of row i's source.
	rowSource []int32
	// answerGate holds which sources are answered (by index in
	// list.sources), for the writer waiting in ready.
	*answerGate
	// treesBuilt counts the sources whose walk back looped.
	treesBuilt atomic.Int64
	// tracedPerRow is the vertices a path of the last block traced had on
	// average, rounded up: the next block's room for its paths.
	tracedPerRow atomic.Int64
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
	a := &pathAnswers{list: list, rows: make([]resultfiles.PathRow, list.len()),
		rowSource: make([]int32, list.len()), answerGate: newAnswerGate(len(list.sources))}
	for k, rows := range list.rows {
		for _, at := range rows {
			a.rowSource[at] = int32(k)
		}
	}
	first := routes.NewTracer(ix, csr)
	a.tracers.New = func() any { return first.Fork() }
	return a, nil
}

// Put reads the paths of the block's sources and releases it, and marks
// their rows final (ready). Safe for concurrent use: every row belongs to
// one source. It returns the error that stopped the run, if any (a failed
// write of the paths table), to end the searches. O(path lengths x
// in-degree).
func (a *pathAnswers) Put(rows *results.Rows) error {
	defer rows.Release()
	if err := a.stoppedBy(); err != nil {
		return err
	}
	if rows.Sparse() || rows.Offsets != nil {
		return fmt.Errorf("pipeline: path requests need whole rows of distances")
	}
	tracer := a.tracers.Get().(*routes.Tracer)
	defer a.tracers.Put(tracer)
	built := tracer.TreesBuilt()
	dist := rows.Distances()
	// The block's paths are traced one after another into one slice, and
	// each row gets its stretch of it once the block is done (the slice
	// may move while it grows): one allocation a block rather than a
	// growing slice a path (about 0.4 of the 5 cpu-s 100,000 Delaware
	// routes took, with the collector's work on the garbage).
	pairs := 0
	for i := range rows.Len() {
		pairs += len(a.list.rows[rows.First+i])
	}
	traced := make([]int32, 0, int64(pairs)*a.tracedPerRow.Load())
	ends, costs := make([]int, 0, pairs), make([]int64, 0, pairs)
	for i := range rows.Len() {
		k := rows.First + i
		source := rows.Sources[i]
		lo, hi := rows.Span(i)
		first := len(ends)
		// A source's paths traced together share their starts (Paths).
		traced, ends, costs = tracer.Paths(traced, ends, costs, source, a.list.targets[k], dist.Slice(lo, hi))
		for j, at := range a.list.rows[k] {
			a.rows[at] = resultfiles.PathRow{Source: source, Target: a.list.targets[k][j], Cost: costs[first+j]}
		}
	}
	if pairs > 0 {
		a.tracedPerRow.Store(int64((len(traced) + pairs - 1) / pairs))
	}
	start, next := 0, 0
	for i := range rows.Len() {
		for _, at := range a.list.rows[rows.First+i] {
			if end := ends[next]; end > start {
				a.rows[at].Vertices = traced[start:end:end]
				start = end
			}
			next++
		}
	}
	a.treesBuilt.Add(int64(tracer.TreesBuilt() - built))
	a.sources.Add(int64(rows.Len()))
	answered := make([]int, rows.Len())
	for i := range answered {
		answered[i] = rows.First + i
	}
	a.answer(answered...)
	return nil
}

// ready waits until row i is final: its source answered. It returns the
// error that stopped the run instead, if one does first.
func (a *pathAnswers) ready(i int) error { return a.wait(int(a.rowSource[i])) }

// Close checks that every source was answered.
func (a *pathAnswers) Close() error {
	if n := a.sources.Load(); n != int64(len(a.list.sources)) {
		return fmt.Errorf("pipeline: %d of the path requests' %d sources answered", n, len(a.list.sources))
	}
	return nil
}

// Abort ends the run: the searches failed. The rows stay for the writer,
// which stops at the first it would wait for (stop).
func (a *pathAnswers) Abort() { a.stop(errSearchesFailed) }

// errSearchesFailed stops the paths table of a run whose searches failed;
// the searches' own error is what the run reports.
var errSearchesFailed = errors.New("pipeline: the searches of the path requests failed")
