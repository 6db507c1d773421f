package cpu

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/hierarchy"
	"github.com/pathflow/pathflow/internal/parallel"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/internal/shortest"
)

// The CPU answers ch from the request's contraction hierarchy, or from
// one it builds for the run: bucket tables for targets, PHAST for whole
// rows.
func init() {
	implementations.Register(backend.AlgorithmCH, implementation{
		choose: asRequested("requested: a contraction hierarchy built for this run, then bucket tables for targets or PHAST for whole rows", chNegativeWeight),
		check:  noVariant,
		run:    (*Backend).runCH,
	})
}

// chGroupSources is the most sources of a request with per-source targets
// that one block answers with one set of buckets, over the union of their
// targets, unless they all ask for the same list. Every source scans the
// buckets of every target of its group, so a small group keeps a pair
// list with a few targets per source close to one point query per pair,
// while sources sharing long target lists still share most backward
// searches.
const chGroupSources = 32

// runCH runs the ch algorithm (see Run): it builds a contraction
// hierarchy of the request's graph on every worker, then answers whole
// rows by PHAST (parents by paths.ParentFinder), rows narrowed to
// targets by the bucket algorithm, and narrowed rows with parents by the
// same tables over the targets and their in-neighbours, the parent being
// the smallest tight in-neighbour. The cutoff
// is a filter: a cell beyond req.MaxDistance is unreachable.
func (b *Backend) runCH(ctx context.Context, req *backend.Request, sink results.Sink) error {
	g, err := requestCSR(req)
	if err != nil {
		return err
	}
	if err := shortest.ValidateSources(g.N, req.Sources); err != nil {
		return err
	}
	if err := validateTargets(g.N, req); err != nil {
		return err
	}
	if !req.Choice.Int64 {
		return fmt.Errorf("cpu: the request's choice asks for int32 distances, but %s gives int64; take the choice from Choose", backend.AlgorithmCH)
	}
	if lo, _ := g.WeightRange(); lo < 0 {
		return chNegativeWeight(lo)
	}
	if len(req.Sources) == 0 {
		return nil
	}
	workers := parallel.Workers(b.workers)
	h := req.Hierarchy
	if h == nil {
		began := time.Now()
		if h, err = hierarchy.Build(ctx, g, hierarchy.WithWorkers(workers)); err != nil {
			return fmt.Errorf("cpu: ch: %w", err)
		}
		req.ReportFact(hierarchy.FactKey, h.Facts(time.Since(began).Seconds()))
	} else if h.N != g.N {
		return fmt.Errorf("cpu: ch: the request's hierarchy has %d vertices and its graph %d", h.N, g.N)
	}
	if req.Narrowed() && req.Wants(results.Parent) && paths.MayLoop(g, req.Wants(results.Metric)) {
		// Over arcs of weight 0 (with a metric, of weight and metric 0) a
		// row's parents may close a cycle, which only the whole row shows;
		// the row is then rebuilt (paths.Repair), and a cell's parent need
		// not be the target's smallest tight in-neighbour. Such tables are
		// swept whole and narrowed, as the GPU does, so that both
		// backends give every cell the parent of the mended row.
		sink = req.NarrowSink(sink)
		whole := *req
		// Whole rows of n values: NarrowBlock reads no sparse cells.
		whole.Targets, whole.SourceTargets, whole.CutoffCells = nil, nil, false
		req = &whole
	}
	run := &chRun{req: req, h: h, g: g, n: int(g.N), limit: req.MaxDistance, workers: workers}
	if req.Wants(results.Metric) {
		if run.keys, err = newChKeys(ctx, req, g, h, workers); err != nil {
			return err
		}
		run.h = run.keys.keyed
		h = run.h
	}
	switch {
	case req.Targets != nil && req.Wants(results.Parent):
		run.chunks = b.chNarrowedChunks(req, workers)
		run.reverse = g.Reverse()
		if run.sel, err = h.Select(run.withInNeighbours(req.Targets)); err != nil {
			return fmt.Errorf("cpu: ch: %w", err)
		}
		run.fill = run.fillSelected
	case req.Narrowed() && req.Wants(results.Parent):
		run.chunks = b.chNarrowedChunks(req, workers)
		run.reverse = g.Reverse()
		run.fill = run.fillGroup
	case req.Targets != nil:
		run.chunks = b.chNarrowedChunks(req, workers)
		run.shared = hierarchy.NewBuckets(h)
		if err := run.shared.Fill(req.Targets, workers); err != nil {
			return fmt.Errorf("cpu: ch: %w", err)
		}
		run.fill = run.fillTable
	case req.SourceTargets != nil:
		run.chunks = b.chNarrowedChunks(req, workers)
		run.fill = run.fillGroup
	default:
		var split bool
		run.chunks, split = b.chTreeChunks(len(req.Sources), int(g.N), workers)
		budget := b.treeMemoryBudget()
		mostBlocks := min(len(run.chunks), blocksPerWorker*workers)
		if !split {
			// Small rows: each worker's Trees call holds a sweep of its
			// own, at most W x TreeSweepBytes at 131,072 vertices (4.7 MB
			// a worker, 8.9 MB on metric keys).
			run.fill, run.fillsEveryCell = run.fillTrees, true
			run.blocks = poolBlocks(budget, int64(workers)*h.TreeSweepBytes(), run.blockBytes(), mostBlocks)
			break
		}
		// Rows of plain distances are copied out at 4 bytes a cell where
		// they fit (narrowCells); rows of key sums do not.
		run.narrowCells = run.keys == nil
		plan := run.splitMemory(budget)
		run.sweeps = newChSweeps(h, len(req.Sources), plan.states, workers)
		for _, c := range run.chunks {
			run.sweeps.all[c.first/hierarchy.TreeLanes].left.Add(1)
		}
		run.fill, run.fillsEveryCell = run.fillSweepRows, true
		run.blocks = plan.blocks
		// Few blocks of whole rows: each row's parents are found on the
		// workers the blocks leave, or the run would use as many cores
		// as it holds blocks.
		run.parentWorkers = max(1, workers/plan.blocks)
		fact := treeMemoryFact(plan, budget, h.TreeSweepBytes(), run.blockBytes())
		if req.Wants(results.Parent) {
			keyed := run.keys != nil
			run.parentsOnOutArcs = parentsOnOutArcs(budget, fact.planned(), g, keyed)
			fact.ParentsOnOutArcs = run.parentsOnOutArcs
			fact.ParentBytes = parentFinderBytes(g, keyed, run.parentsOnOutArcs)
		}
		// The plan bounds what the run holds (with each state's upward
		// searches); the collector's limit keeps the heap near it rather
		// than at twice it.
		var release func()
		searches := int64(plan.states) * h.TreeSweepSearchBytes()
		fact.HeapLimit, release = processHeapLimit.hold(fact.planned() + searches + fact.ParentBytes)
		defer release()
		req.ReportFact(treeMemoryFactKey, fact)
		return run.stream(ctx, sink)
	}
	run.blocks = poolBlocks(b.rowMemory(), 0, run.blockBytes(), min(len(run.chunks), blocksPerWorker*workers))
	return run.stream(ctx, sink)
}

// blockBytes is the most bytes a block of r.chunks holds.
func (r *chRun) blockBytes() int64 {
	most := 0
	for _, c := range r.chunks {
		cells := 0
		if r.req.SourceTargets != nil {
			for i := range c.count {
				cells += len(r.req.SourceTargets[c.first+i])
			}
		} else {
			cells = c.count * r.req.RowWidth(c.first, r.n)
		}
		most = max(most, cells)
	}
	cell := cellBytes(r.req.Wants(results.Parent), false)
	if r.narrowCells {
		cell -= 4
	}
	return int64(most) * cell
}

// splitMemory is how many sweep states and blocks a whole-tree run in
// blocks smaller than a sweep holds within budget (splitTreeMemory): no
// more states than a worker each for the copying ones plus two sweeping
// ahead, no more blocks than two a worker or the run's chunks.
func (r *chRun) splitMemory(budget int64) treeMemory {
	mostStates := (r.workers+hierarchy.TreeLanes-1)/hierarchy.TreeLanes + 2
	mostBlocks := min(len(r.chunks), blocksPerWorker*r.workers)
	return splitTreeMemory(budget, r.h.TreeSweepBytes(), r.blockBytes(), mostStates, mostBlocks)
}

// chNegativeWeight is the error for a graph with a negative arc: a
// contraction hierarchy cannot hold one.
func chNegativeWeight(lo int32) error {
	return fmt.Errorf("cpu: ch needs non-negative weights (a contraction hierarchy's upward searches assume them) and the graph has an arc of weight %d; use bellman-ford, johnson or auto, which handle negative weights (%w, %w)",
		lo, shortest.ErrNegativeWeight, backend.ErrUnsupported)
}

// chChunk is one block of a ch run: count consecutive sources from
// Sources[first].
type chChunk struct{ first, count int }

// chTreeChunks splits count whole rows of n values into blocks of about
// valuesPerBlock values. Where a block holds a sweep's lanes of rows or
// more, blocks are multiples of the lanes (fillTrees sweeps within a
// block), no fewer than workers while there are lanes for them. Where
// fewer rows fit (split), the rows of one sweep span several blocks of
// max(1, valuesPerBlock / n) rows, none across two sweeps (fillSweepRows):
// the rows in flight then stay within the pool's blocks of that size, not
// a sweep's lanes of whole rows per block, however large n.
func (b *Backend) chTreeChunks(count, n, workers int) (chunks []chChunk, split bool) {
	lanes := hierarchy.TreeLanes
	batch := max(1, b.valuesPerBlock()/max(1, n))
	if batch < lanes {
		for sweep := 0; sweep < count; sweep += lanes {
			end := min(count, sweep+lanes)
			for first := sweep; first < end; first += batch {
				chunks = append(chunks, chChunk{first, min(batch, end-first)})
			}
		}
		return chunks, true
	}
	batch -= batch % lanes
	perWorker := (count + workers - 1) / workers
	batch = min(batch, max(lanes, (perWorker+lanes-1)/lanes*lanes))
	for first := 0; first < count; first += batch {
		chunks = append(chunks, chChunk{first, min(batch, count-first)})
	}
	return chunks, false
}

// chNarrowedChunks splits the rows of a narrowed request into blocks of
// about valuesPerBlock cells (at least one row each), no fewer than the
// workers while there are rows for them. With per-source targets a block
// holds at most chGroupSources rows, unless all its rows ask for one same
// list (an origin-destination table written as pairs): those share the
// buckets of that list as a shared target list would. O(cells).
func (b *Backend) chNarrowedChunks(req *backend.Request, workers int) []chChunk {
	count := len(req.Sources)
	most := max(1, (count+workers-1)/workers)
	var chunks []chChunk
	for first := 0; first < count; {
		rows, cells := 0, 0
		uniform := true // every row so far asks for the first row's list
		for first+rows < count && rows < most {
			if req.SourceTargets != nil {
				uniform = uniform && slices.Equal(req.SourceTargets[first+rows], req.SourceTargets[first])
				if rows >= chGroupSources && !uniform {
					break
				}
			}
			w := req.RowWidth(first+rows, 0)
			if rows > 0 && cells+w > b.valuesPerBlock() {
				break
			}
			rows++
			cells += w
		}
		chunks = append(chunks, chChunk{first, rows})
		first += rows
	}
	return chunks
}

// chRun is the state a ch run's workers share.
type chRun struct {
	req     *backend.Request
	h       *hierarchy.Hierarchy
	g       *graph.CSR
	n       int
	limit   int64
	workers int
	chunks  []chChunk
	// shared holds the buckets of req.Targets, filled once for every
	// block.
	shared *hierarchy.Buckets
	// reverse, for narrowed rows with parents, lists each vertex's
	// in-arcs: the table also reaches a target's in-neighbours, and the
	// parent is the smallest tight one.
	reverse *graph.CSR
	// sel, for shared targets with parents, is the part of the hierarchy
	// that reaches the targets and their in-neighbours, which restricted
	// sweeps settle (fillSelected), and columns where its sweeps hold
	// them, found once.
	sel         *hierarchy.Selection
	columnsOnce sync.Once
	columns     *selectedColumns
	// fill computes one block; its worker state comes from chWorker.
	fill func(w *chWorker, rows *results.Rows) error
	// fillsEveryCell says that fill writes every distance of its block
	// (whole rows, fillTrees and fillSweepRows), so that shape leaves
	// them as they are: 100,000 Delaware routes wrote 590 MB of
	// distances twice.
	fillsEveryCell bool
	// sweeps, for whole rows in blocks smaller than a sweep, holds sweep
	// i, of sources TreeLanes*i onwards, which the blocks of its rows
	// share (fillSweepRows).
	sweeps *chSweeps
	// parentsOnOutArcs, for whole rows in blocks smaller than a sweep
	// whose budget leaves no room for a reverse graph, finds parents
	// from the graph's out-arcs (paths.NewParentFinderOnOutArcs).
	parentsOnOutArcs bool
	// parentWorkers is how many goroutines find a row's parents
	// (paths.ParentFinder.Spread): 1 but where a run holds few blocks.
	parentWorkers int
	// narrowCells, for whole rows in blocks smaller than a sweep, keeps
	// the blocks' distances as int32 (results.Rows.Dist32): 8 bytes a
	// cell with its parent instead of 12, 96 MB less a row at 24M
	// vertices, and the writers read either width alike. A row with a
	// distance of graph.Inf32 or more is copied at 8 bytes, and so is
	// every later block of the run (wideCells).
	narrowCells bool
	wideCells   atomic.Bool
	// blocks is the size of the pool, within the row budget beside the
	// sweeps' states.
	blocks int
	// ctx is the run's, cancelled on its first error: what a worker
	// waiting for a sweep's state watches.
	ctx context.Context
	// parents is made once for the run; each worker forks it, sharing its
	// reverse graph.
	parentsOnce sync.Once
	parents     *paths.ParentFinder
	parentsErr  error
	// keys, for a request with the Metric column, holds the keyed
	// hierarchy the run queries and what splits its rows (chKeys).
	keys *chKeys
}

// parentFinder returns a worker's parent finder, forked from the run's:
// on keys for a metric request, so that parents follow the path the
// metric is summed over.
func (r *chRun) parentFinder() (*paths.ParentFinder, error) {
	r.parentsOnce.Do(func() {
		switch {
		case r.keys != nil && r.parentsOnOutArcs:
			r.parents, r.parentsErr = paths.NewKeyedParentFinderOnOutArcs(r.g)
		case r.keys != nil:
			r.parents, r.parentsErr = paths.NewKeyedParentFinder(r.g)
		case r.parentsOnOutArcs:
			r.parents = paths.NewParentFinderOnOutArcs(r.g)
		default:
			r.parents = paths.NewParentFinder(r.g)
		}
	})
	if r.parentsErr != nil {
		return nil, r.parentsErr
	}
	return r.parents.Fork(), nil
}

// chWorker is one worker's scratch space, made on first use.
type chWorker struct {
	parents *paths.ParentFinder
	buckets *hierarchy.Buckets
	sweep   *hierarchy.SelectionSweep
	union   []int32
	index   map[int32]int
	table   []int64
	// tails holds one target's in-neighbours' distances (tightParent).
	tails []int64
}

// stream computes the blocks of r.chunks on r.workers goroutines (no more
// than the pool's blocks) from a pool of r.blocks blocks and hands them to
// sink: block
// k holds chunk k, taken from the pool before it is computed (see
// results.Pool). The first error (of a block, of sink or of ctx) stops
// every worker; stream returns it once all have ended.
func (r *chRun) stream(ctx context.Context, sink results.Sink) error {
	workers := min(r.workers, len(r.chunks), r.blocks)
	blocks := make([]*results.Rows, r.blocks)
	for i := range blocks {
		blocks[i] = &results.Rows{}
	}
	pool := results.NewPool(blocks)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	r.ctx = ctx
	if r.sweeps != nil {
		defer r.sweeps.wakeOnDone(ctx)()
	}
	var (
		claimed, done atomic.Int64
		once          sync.Once
		firstErr      error
		wg            sync.WaitGroup
	)
	fail := func(err error) {
		once.Do(func() { firstErr = err })
		cancel()
	}
	total := int64(len(r.req.Sources))
	for range workers {
		wg.Go(func() {
			w := &chWorker{}
			for claimed.Add(1) <= int64(len(r.chunks)) {
				rows, k, err := pool.Next(ctx)
				if err != nil {
					fail(fmt.Errorf("cpu: %w", err))
					return
				}
				r.shape(rows, r.chunks[k])
				err = r.fill(w, rows)
				if err == nil && r.keys != nil {
					err = r.keys.split(rows)
				}
				if err != nil {
					rows.Release()
					fail(err)
					return
				}
				r.cut(rows)
				if err := ctx.Err(); err != nil {
					rows.Release()
					fail(fmt.Errorf("cpu: %w", err))
					return
				}
				r.req.ReportProgress(done.Add(int64(rows.Len())), total)
				if err := sink(rows); err != nil {
					fail(err)
					return
				}
			}
		})
	}
	wg.Wait()
	return firstErr
}

// shape makes rows the block of chunk c in the request's shape (whole
// rows, narrowed or ragged), every distance paths.Unreachable (unless
// fill writes them all) and every parent paths.NoParent, reusing its
// buffers.
func (r *chRun) shape(rows *results.Rows, c chChunk) {
	req := r.req
	rows.First, rows.Sources = c.first, req.Sources[c.first:c.first+c.count]
	rows.Width, rows.Offsets = 0, nil
	cells := 0
	if req.SourceTargets != nil {
		rows.Offsets = make([]int, c.count+1)
		for i := range c.count {
			cells += len(req.SourceTargets[c.first+i])
			rows.Offsets[i+1] = cells
		}
	} else {
		rows.Width = req.RowWidth(c.first, r.n)
		cells = c.count * rows.Width
	}
	if r.narrowCells && !r.wideCells.Load() {
		rows.Dist32, rows.Dist64 = growNarrow(rows.Dist32, cells), nil
	} else {
		rows.Dist32, rows.Dist64 = nil, grow(rows.Dist64, cells)
	}
	if !r.fillsEveryCell {
		for i := range rows.Dist64 {
			rows.Dist64[i] = paths.Unreachable
		}
	}
	if req.Wants(results.Parent) {
		rows.Parent = growParents(rows.Parent, cells)
	}
}

// grow returns s with length n, reallocated only when too small.
func grow(s []int64, n int) []int64 {
	if cap(s) < n {
		return make([]int64, n)
	}
	return s[:n]
}

// growNarrow returns s with length n, reallocated only when too small.
func growNarrow(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n)
	}
	return s[:n]
}

// growParents returns s with length n, every value paths.NoParent.
func growParents(s []int32, n int) []int32 {
	if cap(s) < n {
		s = make([]int32, n)
	}
	s = s[:n]
	for i := range s {
		s[i] = paths.NoParent
	}
	return s
}

// cut applies the cutoff: a cell farther than req.MaxDistance (unless
// that is negative, no cutoff) becomes unreachable without a parent. A
// kept vertex's parent is nearer, so it is kept too.
func (r *chRun) cut(rows *results.Rows) {
	if r.limit < 0 {
		return
	}
	for i, d := range rows.Dist32 {
		if d < graph.Inf32 && int64(d) > r.limit {
			rows.Dist32[i] = graph.Inf32
			if rows.Parent != nil {
				rows.Parent[i] = paths.NoParent
			}
		}
	}
	for i, d := range rows.Dist64 {
		if d != paths.Unreachable && d > r.limit {
			rows.Dist64[i] = paths.Unreachable
			if rows.Parent != nil {
				rows.Parent[i] = paths.NoParent
			}
		}
	}
}

// fillTrees computes whole rows by PHAST, on this worker alone, and their
// parents in the original graph. O(rows * (N + arcs) / lanes) for the
// distances, O(rows * (N + M)) for the parents.
func (r *chRun) fillTrees(w *chWorker, rows *results.Rows) error {
	if err := r.h.Trees(rows.Sources, rows.Dist64, 1); err != nil {
		return fmt.Errorf("cpu: ch: %w", err)
	}
	if rows.Parent == nil {
		return nil
	}
	return r.fillParents(w, rows)
}

// fillParents derives the parents of the block's whole rows from their
// distances. O(rows * (N + M)).
func (r *chRun) fillParents(w *chWorker, rows *results.Rows) error {
	if w.parents == nil {
		f, err := r.parentFinder()
		if err != nil {
			return fmt.Errorf("cpu: ch: %w", err)
		}
		f.Spread(r.parentWorkers)
		w.parents = f
	}
	for i, s := range rows.Sources {
		lo, hi := rows.Span(i)
		var err error
		if rows.Dist32 != nil {
			err = w.parents.Parents32(s, rows.Dist32[lo:hi], rows.Parent[lo:hi])
		} else {
			err = w.parents.Parents(s, rows.Dist64[lo:hi], rows.Parent[lo:hi])
		}
		if err != nil {
			return fmt.Errorf("cpu: ch: %w", err)
		}
	}
	return nil
}

// fillSweepRows copies the block's whole rows out of the sweep of their
// sources, which the first block of it to arrive runs; a worker that finds
// it running sweeps a later one meanwhile rather than wait idle, so
// sweeps and copies overlap, within the run's held sweep states.
// O(N) per row beyond the sweep's share, and the parents as fillTrees.
func (r *chRun) fillSweepRows(w *chWorker, rows *results.Rows) error {
	lanes := hierarchy.TreeLanes
	i := rows.First / lanes
	s := r.sweeps.all[i]
	if !r.sweeps.run(r.ctx, i, r.sweepSources(i), true) {
		for j := i + 1; j < min(len(r.sweeps.all), i+r.sweeps.held); j++ {
			if r.sweeps.run(r.ctx, j, r.sweepSources(j), false) {
				break
			}
		}
		<-s.done
	}
	if s.err != nil {
		return s.err
	}
	if err := r.copyRows(s.sweep, rows.First-i*lanes, rows); err != nil {
		return fmt.Errorf("cpu: ch: %w", err)
	}
	r.sweeps.copied(i)
	if rows.Parent == nil {
		return nil
	}
	return r.fillParents(w, rows)
}

// copyRows copies rows of sweep from its row first into the block, at the
// block's width; a block shaped narrow whose rows do not fit in int32 is
// copied at 8 bytes, and the run's later blocks are shaped so. O(N) a row.
func (r *chRun) copyRows(sweep *hierarchy.TreeSweep, first int, rows *results.Rows) error {
	if rows.Dist32 != nil {
		fits, err := sweep.Rows32(first, rows.Len(), rows.Dist32)
		if err != nil || fits {
			return err
		}
		r.wideCells.Store(true)
		rows.Dist32, rows.Dist64 = nil, make([]int64, len(rows.Dist32))
	}
	return sweep.Rows(first, rows.Len(), rows.Dist64)
}

// sweepSources are the sources of sweep i.
func (r *chRun) sweepSources(i int) []int32 {
	lanes := hierarchy.TreeLanes
	return r.req.Sources[i*lanes : min(len(r.req.Sources), (i+1)*lanes)]
}

// fillTable reads the block's rows against the buckets of the request's
// shared targets. O(rows * (search space + bucket scans)).
func (r *chRun) fillTable(_ *chWorker, rows *results.Rows) error {
	if err := r.shared.Rows(rows.Sources, rows.Dist64, 1); err != nil {
		return fmt.Errorf("cpu: ch: %w", err)
	}
	return nil
}

// fillGroup answers a block of per-source target lists: buckets over the
// union of the block's targets, a table row over the union per source,
// from which each source's own targets are copied. O(union * search
// space + rows * (search space + bucket scans)).
func (r *chRun) fillGroup(w *chWorker, rows *results.Rows) error {
	if w.buckets == nil {
		w.buckets = hierarchy.NewBuckets(r.h)
		w.index = map[int32]int{}
	}
	clear(w.index)
	w.union = w.union[:0]
	add := func(v int32) {
		if _, ok := w.index[v]; !ok {
			w.index[v] = len(w.union)
			w.union = append(w.union, v)
		}
	}
	for i := range rows.Len() {
		for _, v := range r.req.RowTargets(rows.First + i) {
			add(v)
			if r.reverse != nil {
				for e := r.reverse.Offsets[v]; e < r.reverse.Offsets[v+1]; e++ {
					add(r.reverse.Targets[e])
				}
			}
		}
	}
	if err := w.buckets.Fill(w.union, 1); err != nil {
		return fmt.Errorf("cpu: ch: %w", err)
	}
	u := len(w.union)
	w.table = grow(w.table, rows.Len()*u)
	if err := w.buckets.Rows(rows.Sources, w.table, 1); err != nil {
		return fmt.Errorf("cpu: ch: %w", err)
	}
	for i, s := range rows.Sources {
		lo, _ := rows.Span(i)
		row := w.table[i*u : (i+1)*u]
		for j, v := range r.req.RowTargets(rows.First + i) {
			d := row[w.index[v]]
			rows.Dist64[lo+j] = d
			if rows.Parent != nil {
				w.tails = w.tails[:0]
				for _, u := range r.reverse.Targets[r.reverse.Offsets[v]:r.reverse.Offsets[v+1]] {
					w.tails = append(w.tails, row[w.index[u]])
				}
				rows.Parent[lo+j] = r.tightParent(s, v, d, w.tails)
			}
		}
	}
	return nil
}

// tightParent is the parent of t, at distance d, in the row of source s:
// its smallest in-neighbour u other than t with dist(u) + w(u, t) == d,
// tails[i] holding the row's distance of the tail of t's in-arc i (in
// r.reverse's order), or paths.NoParent for the source and unreachable
// vertices. A loop of weight 0 closes t's own distance, and is no parent
// (the rule of paths.ParentFinder). The callers gather tails, each from
// where its rows keep them: a slice, not a function, keeps the call out
// of the loop over a table's cells. O(in-degree of t).
func (r *chRun) tightParent(s, t int32, d int64, tails []int64) int32 {
	if t == s || d == paths.Unreachable {
		return paths.NoParent
	}
	parent := paths.NoParent
	first := r.reverse.Offsets[t]
	for i, u := range r.reverse.Targets[first:r.reverse.Offsets[t+1]] {
		if u == t {
			continue
		}
		if du := tails[i]; du != paths.Unreachable && du+r.inArcWeight(first+int64(i)) == d && (parent == paths.NoParent || u < parent) {
			parent = u
		}
	}
	return parent
}

// withInNeighbours returns targets and the in-neighbours of each, every
// vertex once, targets first in their order. O(targets + their in-arcs).
func (r *chRun) withInNeighbours(targets []int32) []int32 {
	seen := make(map[int32]bool, 4*len(targets))
	var out []int32
	add := func(v int32) {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	for _, t := range targets {
		add(t)
	}
	for _, t := range targets {
		for _, u := range r.reverse.Targets[r.reverse.Offsets[t]:r.reverse.Offsets[t+1]] {
			add(u)
		}
	}
	return out
}

// selectedColumns are where fillSelected reads a row's cells: the
// position in the run's selection (hierarchy.SelectionSweep.PositionOf)
// of each target and of each in-neighbour of it, by in-arc of r.reverse.
type selectedColumns struct {
	target []int32
	inArc  []int32 // by in-arc index of r.reverse; only the targets' arcs are set
}

// selectedColumns finds the positions of the request's targets and their
// in-neighbours in sweep's selection, once a run. O(targets + in-arcs).
func (r *chRun) selectedColumns(sweep *hierarchy.SelectionSweep) *selectedColumns {
	r.columnsOnce.Do(func() {
		c := &selectedColumns{target: make([]int32, len(r.req.Targets)), inArc: make([]int32, len(r.reverse.Targets))}
		for j, t := range r.req.Targets {
			c.target[j] = sweep.PositionOf(t)
			for e := r.reverse.Offsets[t]; e < r.reverse.Offsets[t+1]; e++ {
				c.inArc[e] = sweep.PositionOf(r.reverse.Targets[e])
			}
		}
		r.columns = c
	})
	return r.columns
}

// fillSelected answers a block of rows over the request's shared targets
// with their parents by restricted PHAST: TreeLanes sources per sweep over
// the selection that reaches the targets and their in-neighbours, from
// which each target's distance and its smallest tight in-neighbour are
// read (the rule of tightParent). On a road network the selection of a
// thousand targets and their in-neighbours is a few times their number,
// where a bucket table would scan a bucket for every one of them.
// O(rows / TreeLanes * selection + rows * in-arcs of the targets).
func (r *chRun) fillSelected(w *chWorker, rows *results.Rows) error {
	if w.sweep == nil {
		w.sweep = r.h.NewSelectionSweep(r.sel)
	}
	cols := r.selectedColumns(w.sweep)
	targets := r.req.Targets
	lanes := hierarchy.TreeLanes
	for g := 0; g < rows.Len(); g += lanes {
		batch := rows.Sources[g:min(rows.Len(), g+lanes)]
		if err := w.sweep.Run(batch); err != nil {
			return fmt.Errorf("cpu: ch: %w", err)
		}
		for k, s := range batch {
			lo, _ := rows.Span(g + k)
			for j, t := range targets {
				d := w.sweep.At(k, cols.target[j])
				rows.Dist64[lo+j] = d
				w.tails = w.tails[:0]
				for _, col := range cols.inArc[r.reverse.Offsets[t]:r.reverse.Offsets[t+1]] {
					w.tails = append(w.tails, w.sweep.At(k, col))
				}
				rows.Parent[lo+j] = r.tightParent(s, t, d, w.tails)
			}
		}
	}
	return nil
}

// inArcWeight is the weight of in-arc e of r.reverse, or its key on a
// metric request (whose rows hold key sums). O(1).
func (r *chRun) inArcWeight(e int64) int64 {
	if r.keys != nil {
		return graph.Key(r.reverse.Weights[e], r.reverse.Metric[e])
	}
	return int64(r.reverse.Weights[e])
}
