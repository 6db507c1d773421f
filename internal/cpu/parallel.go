package cpu

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/parallel"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/internal/shortest"
)

// blocksPerWorker is the pool's largest size per worker: one block being
// computed and one with the consumer, so a worker need not wait for the
// consumer to finish a block before starting the next. The run's row
// budget (RowMemory) may allow fewer.
const blocksPerWorker = 2

// stream computes the rows of req, width values each, with one search per
// source, on up to b.workers goroutines, and hands them to sink in blocks
// from a pool of blocksPerWorker blocks per worker, or as many as the row
// budget holds (at least one; no more workers than blocks). Block k holds the
// sources of batch k; a worker takes a block from the pool before it
// computes the batch (see results.Pool). The first error (from a search,
// from sink or from ctx) stops every worker; stream returns it after all
// of them have ended. req.Progress hears of every batch computed.
func (b *Backend) stream(ctx context.Context, req *backend.Request, width int, newSearch func() shortest.RowSearch, sink results.Sink) error {
	return b.streamBlocks(ctx, req, width, width, func() blockFiller {
		search := newSearch()
		return func(ctx context.Context, rows *results.Rows, first, batch int) error {
			return fillBlock(ctx, rows, req, first, batch, search)
		}
	}, sink)
}

// streamTargets is stream for a request narrowed to targets (Targets or
// SourceTargets): blocks of rows len(Targets) wide, or ragged, each row
// computed by a target search.
func (b *Backend) streamTargets(ctx context.Context, req *backend.Request, newSearch func(withParents bool) shortest.TargetSearch, sink results.Sink) error {
	width := len(req.Targets)
	cellsPerRow := width
	if req.SourceTargets != nil {
		width = 0
		cells := 0
		for _, ts := range req.SourceTargets {
			cells += len(ts)
		}
		cellsPerRow = cells / max(1, len(req.Sources))
	}
	return b.streamBlocks(ctx, req, width, cellsPerRow, func() blockFiller {
		search := newSearch(req.Wants(results.Parent))
		return func(ctx context.Context, rows *results.Rows, first, batch int) error {
			return fillTargetBlock(ctx, rows, req, first, batch, search)
		}
	}, sink)
}

// blockFiller computes the rows of a batch, req.Sources[first:first+batch]
// (fewer at the end), into a block; each worker has its own.
type blockFiller func(ctx context.Context, rows *results.Rows, first, batch int) error

// streamBlocks runs stream's workers over blocks width values wide, sized
// for about blockValues values of cellsPerRow per row.
func (b *Backend) streamBlocks(ctx context.Context, req *backend.Request, width, cellsPerRow int, newFiller func() blockFiller, sink results.Sink) error {
	count := len(req.Sources)
	if count == 0 {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("cpu: %w", err)
	}
	// About blockValues distances per block, but no fewer blocks than
	// workers while there are sources for them.
	workers := parallel.Workers(b.workers)
	batch := max(1, min(b.valuesPerBlock()/max(1, cellsPerRow), (count+workers-1)/workers))
	batches := (count + batch - 1) / batch
	blockBytes := int64(batch) * int64(cellsPerRow) * cellBytes(req.Wants(results.Parent), req.SparseRows())
	pooled := poolBlocks(b.rowMemory(), 0, blockBytes, min(batches, blocksPerWorker*workers))
	// A worker computes into a block of the pool: one without a block to
	// take would only wait.
	workers = min(workers, batches, pooled)
	// The buffers are allocated on first use, so a short run allocates
	// only what it fills.
	blocks := make([]*results.Rows, pooled)
	for i := range blocks {
		blocks[i] = &results.Rows{Width: width}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	run := &streamRun{req: req, pool: results.NewPool(blocks), batch: batch, batches: batches, sink: sink, cancel: cancel}
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() { run.work(ctx, newFiller()) })
	}
	wg.Wait()
	return run.firstErr
}

// streamRun is the state stream's workers share.
type streamRun struct {
	req            *backend.Request
	pool           *results.Pool
	batch, batches int
	sink           results.Sink
	cancel         context.CancelFunc
	// claimed counts the pool.Next calls made or about to be made:
	// exactly one per batch, so that no worker waits for a block it would
	// not fill. done counts the rows computed, for req.Progress.
	claimed, done atomic.Int64
	once          sync.Once
	firstErr      error
}

// fail records the run's first error and stops the other workers.
func (r *streamRun) fail(err error) {
	r.once.Do(func() { r.firstErr = err })
	r.cancel()
}

// work is one worker: it claims batches until none is left or the run
// fails, computes each into a block of the pool and hands it to the sink.
func (r *streamRun) work(ctx context.Context, fill blockFiller) {
	for r.claimed.Add(1) <= int64(r.batches) {
		rows, k, err := r.pool.Next(ctx)
		if err != nil {
			r.fail(fmt.Errorf("cpu: %w", err))
			return
		}
		if err := fill(ctx, rows, k*r.batch, r.batch); err != nil {
			rows.Release()
			r.fail(err)
			return
		}
		if err := ctx.Err(); err != nil {
			// Another worker failed meanwhile: the run is over.
			rows.Release()
			r.fail(fmt.Errorf("cpu: %w", err))
			return
		}
		r.req.ReportProgress(r.done.Add(int64(rows.Len())), int64(len(r.req.Sources)))
		if err := r.sink(rows); err != nil {
			r.fail(err)
			return
		}
	}
}

// fillBlock computes the rows of sources req.Sources[first:first+batch]
// (fewer at the end) into rows, growing its buffers to a full batch the
// first time.
func fillBlock(ctx context.Context, rows *results.Rows, req *backend.Request, first, batch int, search shortest.RowSearch) error {
	width := rows.Width
	sources := req.Sources[first:min(first+batch, len(req.Sources))]
	size := len(sources) * width
	rows.First, rows.Sources = first, sources
	clearRows(rows, req.Wants(results.Parent), size, batch*width)
	for i, s := range sources {
		var parent []int32
		if rows.Parent != nil {
			parent = rows.Parent[i*width : (i+1)*width]
		}
		if err := search(ctx, s, rows.Dist64[i*width:(i+1)*width], parent); err != nil {
			return err
		}
	}
	return nil
}

// fillTargetBlock computes the narrowed rows of sources
// req.Sources[first:first+batch] (fewer at the end) into rows: len(Targets)
// values per row, or row i's own targets, ragged, growing the buffers as
// needed.
func fillTargetBlock(ctx context.Context, rows *results.Rows, req *backend.Request, first, batch int, search shortest.TargetSearch) error {
	sources := req.Sources[first:min(first+batch, len(req.Sources))]
	rows.First, rows.Sources = first, sources
	size := len(sources) * rows.Width
	if req.SourceTargets != nil {
		rows.Offsets = append(rows.Offsets[:0], 0)
		size = 0
		for i := range sources {
			size += len(req.SourceTargets[first+i])
			rows.Offsets = append(rows.Offsets, size)
		}
	}
	clearRows(rows, req.Wants(results.Parent), size, size)
	for i, s := range sources {
		targets := req.RowTargets(first + i)
		lo, hi := rows.Span(i)
		var parent []int32
		if rows.Parent != nil {
			parent = rows.Parent[lo:hi]
		}
		if err := search(ctx, s, targets, rows.Dist64[lo:hi], parent); err != nil {
			return err
		}
	}
	return nil
}

// clearRows sizes rows' distances, and its parents when parents is set,
// to size values, all unreachable and without parent; a buffer with room
// for fewer than size is replaced by one of capacity.
func clearRows(rows *results.Rows, parents bool, size, capacity int) {
	if cap(rows.Dist64) < size {
		rows.Dist64 = make([]int64, capacity)
	}
	rows.Dist64 = rows.Dist64[:size]
	if parents {
		if cap(rows.Parent) < size {
			rows.Parent = make([]int32, capacity)
		}
		rows.Parent = rows.Parent[:size]
	}
	for v := range rows.Dist64 {
		rows.Dist64[v] = paths.Unreachable
	}
	for v := range rows.Parent {
		rows.Parent[v] = paths.NoParent
	}
}
