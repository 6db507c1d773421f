//go:build cuda

package device

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"gorgonia.org/cu"

	"github.com/pathflow/pathflow/internal/results"
)

// Results reach the host through a run's staging: a results.Pool of pinned
// blocks, a copy stream, and one event per block. The producer (the
// goroutine that called Run) loops over the blocks. With device work per
// block (SSSP):
//
//	compute k   kernels into result buffer k%2, while the copy engine
//	            moves block k-1 to the host
//	hand k-1    wait for block k-1's copy, pass it to the hand-over goroutine
//	Next        take block k's pinned buffer from the pool
//	copy k      enqueue the copies into it on the copy stream, then its event
//
// and without (a matrix already on the device), so that the copy engine
// never waits for the host:
//
//	Next, copy k, then hand k-1
//
// so the copy engine fills block k while the host encodes block k-1. The
// hand-over goroutine runs host work on the block (parent repair) and
// calls the sink, so that neither delays the device.

// StagedBlock is one pinned block of a run's pool: its rows as handed to
// the sink, the pinned memory they point into, and the event recorded
// after the copies into it.
type StagedBlock struct {
	rows         *results.Rows
	dist, parent *Pinned
	copied       cu.Event
}

// Rows are the block's rows as the sink will get them.
func (blk *StagedBlock) Rows() *results.Rows { return blk.rows }

// Dist is the pinned memory the block's distances are copied into.
func (blk *StagedBlock) Dist() *Pinned { return blk.dist }

// Parent is the pinned memory the block's parents are copied into, or nil
// in a run without parents.
func (blk *StagedBlock) Parent() *Pinned { return blk.parent }

// staging is one run's pool, blocks and copy stream.
type staging struct {
	shape   StagingShape
	width   int64
	parents bool
	blocks  []*StagedBlock
	byRows  map[*results.Rows]*StagedBlock
	pool    *results.Pool
	cs      *CopyStream
}

// StageFuncs are what a kind of run plugs into Stager.Stream. Compute and
// Copy run on the device's thread (inside Device.Do); neither may wait for
// the copy stream.
type StageFuncs struct {
	// Compute runs block k's device work for its sources, request rows
	// first.., or is nil. It may wait for its own kernels (the copy of
	// block k-1 goes on). k counts this run's blocks (its parity picks a
	// result slot); with a fed shape, first is the feed's, not k's.
	Compute func(c *Ctx, k, first int, sources []int32) error
	// Copy enqueues on cs the copies of block k into blk, whose rows are
	// set (First, Sources, Width, Dist32 and Parent sized to them).
	Copy func(c *Ctx, k int, blk *StagedBlock, cs *CopyStream) error
	// Prepare is host work on a copied block before the sink, or nil; it
	// runs on the hand-over goroutine.
	Prepare func(*results.Rows)
}

// Stager streams one device's result rows to the host (Stream) through
// blocks of page-locked memory, which it keeps between runs. Its methods
// may be called from several goroutines.
type Stager struct {
	dev    *Device
	opts   StagingOptions
	pinned pinnedCache
}

// NewStager stages dev's results in blocks shaped by opts and keeps one
// run's worth of pinned blocks (distances and parents) between runs.
func NewStager(dev *Device, opts StagingOptions) *Stager {
	return &Stager{dev: dev, opts: opts, pinned: pinnedCache{limit: 2 * int64(opts.Blocks) * opts.Bytes}}
}

// Device is the device whose results the stager moves.
func (sg *Stager) Device() *Device { return sg.dev }

// Options are the stager's block shape.
func (sg *Stager) Options() StagingOptions { return sg.opts }

// Close frees the cached pinned memory; the device stays open. Runs must
// have returned. After the device's Close it has nothing to do.
func (sg *Stager) Close() error {
	err := sg.dev.Do(func(*Ctx) error { return sg.pinned.freeAll() })
	if errors.Is(err, errClosed) {
		err = nil
	}
	return err
}

// FillCached writes v over every cached pinned block, so that a test can
// tell a cell no copy wrote from one an earlier run left.
func (sg *Stager) FillCached(v int32) {
	sg.pinned.mu.Lock()
	defer sg.pinned.mu.Unlock()
	for _, p := range sg.pinned.free {
		s := p.Int32s(p.bytes / 4)
		for i := range s {
			s[i] = v
		}
	}
}

// Stream hands the rows of sources, width values each, to sink in the
// blocks of shape, through pinned staging (see the top of this file). The
// first error from f, a copy, sink or ctx stops it. It returns when no
// goroutine of its own is left, nothing is copying into a block, and the
// consumer has released every block it was handed, so the pinned memory
// can be reused.
func (sg *Stager) Stream(ctx context.Context, width int64, sources []int32, parents bool,
	shape StagingShape, f StageFuncs, sink results.Sink) (StreamStats, error) {
	if shape.blocks == 0 {
		return StreamStats{}, ctx.Err()
	}
	opened := time.Now()
	st, err := sg.openStaging(width, parents, shape)
	if err != nil {
		return StreamStats{}, err
	}
	open := time.Since(opened)
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	r := &streamRun{sg: sg, st: st, f: f, ctx: runCtx, cancel: cancel,
		handoff: make(chan *StagedBlock), handed: make(chan struct{})}
	go r.handOver(sink)
	begin := time.Now()
	if err := r.produce(sources); err != nil {
		r.fail(err)
	}
	close(r.handoff)
	<-r.handed
	r.stats.Wall, r.stats.Open = time.Since(begin), open
	err = r.finish()
	return r.stats, err
}

// streamRun is one call of Stager.Stream: the producer's state (the
// blocks it holds, the stats) and what it shares with the hand-over
// goroutine (the channel, the first error, the cancellation).
type streamRun struct {
	sg *Stager
	st *staging
	f  StageFuncs
	// ctx is cancelled by the first error.
	ctx    context.Context
	cancel context.CancelFunc
	// firstErr is the first error, read by both goroutines.
	firstMu  sync.Mutex
	firstErr error
	// handoff carries the copied blocks, in order, to the hand-over
	// goroutine, which closes handed when it ends.
	handoff chan *StagedBlock
	handed  chan struct{}
	// held are the blocks taken from the pool and not handed over, oldest
	// first: at most two (one with device work).
	held  []*StagedBlock
	stats StreamStats
}

// fail records err, if it is the first, and stops the run.
func (r *streamRun) fail(err error) {
	r.firstMu.Lock()
	if r.firstErr == nil {
		r.firstErr = err
	}
	r.firstMu.Unlock()
	r.cancel()
}

// failure returns the first error recorded by fail, or nil.
func (r *streamRun) failure() error {
	r.firstMu.Lock()
	defer r.firstMu.Unlock()
	return r.firstErr
}

// handOver is the hand-over goroutine: blocks arrive in order, each
// copied; it prepares each and passes it to sink.
func (r *streamRun) handOver(sink results.Sink) {
	defer close(r.handed)
	for blk := range r.handoff {
		if r.failure() != nil {
			blk.rows.Release() // never handed over: the producer's to return
			continue
		}
		if r.f.Prepare != nil {
			r.f.Prepare(blk.rows)
		}
		// The sink owns the block from here, error or not.
		if err := sink(blk.rows); err != nil {
			r.fail(err)
		}
	}
}

// produce runs the device work of every block of sources (its own, or
// those the feed hands it), copies each into a pinned block and hands it
// over, in the order the top of this file describes.
func (r *streamRun) produce(sources []int32) error {
	for k := 0; ; k++ {
		if err := r.ctx.Err(); err != nil {
			return err
		}
		at, count := r.st.shape.next(k, len(sources))
		if count == 0 {
			break
		}
		rowSources := sources[at : at+count]
		if r.f.Compute != nil {
			if err := r.sg.dev.Do(func(c *Ctx) error { return r.f.Compute(c, k, at, rowSources) }); err != nil {
				return err
			}
			// Block k-1's copy ran beside those kernels: hand it over
			// before waiting for the pool.
			if len(r.held) > 0 {
				if err := r.handOldest(); err != nil {
					return err
				}
			}
		}
		blk, err := r.nextBlock(k)
		if err != nil {
			return err
		}
		r.st.setRows(blk, at, rowSources)
		if err := r.copyBlock(k, blk); err != nil {
			return err
		}
		// Without device work, block k's copy is queued behind block
		// k-1's: hand k-1 over while k copies.
		if len(r.held) == 2 {
			if err := r.handOldest(); err != nil {
				return err
			}
		}
	}
	for len(r.held) > 0 {
		if err := r.handOldest(); err != nil {
			return err
		}
	}
	return nil
}

// nextBlock takes block k's pinned block from the pool and holds it.
func (r *streamRun) nextBlock(k int) (*StagedBlock, error) {
	waited := time.Now()
	rows, seq, err := r.st.pool.Next(r.ctx)
	r.stats.Wait += time.Since(waited)
	if err != nil {
		return nil, err
	}
	blk := r.st.byRows[rows]
	r.held = append(r.held, blk)
	if seq != k {
		return nil, fmt.Errorf("gpu: block %d came from the pool as number %d", k, seq)
	}
	return blk, nil
}

// copyBlock enqueues block k's copies into blk on the copy stream, then
// its event.
func (r *streamRun) copyBlock(k int, blk *StagedBlock) error {
	cs := r.st.cs
	return r.sg.dev.Do(func(c *Ctx) error {
		if err := cs.markStart(); err != nil {
			return err
		}
		if err := r.f.Copy(c, k, blk, cs); err != nil {
			return err
		}
		if err := blk.copied.Record(cs.s); err != nil {
			return fmt.Errorf("gpu: recording an event: %w", err)
		}
		return nil
	})
}

// handOldest waits for the oldest held block's copy and passes it to the
// hand-over goroutine.
func (r *streamRun) handOldest() error {
	blk := r.held[0]
	if err := r.sg.dev.Do(func(*Ctx) error { return blk.waitCopied() }); err != nil {
		return err
	}
	if err := r.ctx.Err(); err != nil {
		return err
	}
	select {
	case r.handoff <- blk:
	case <-r.ctx.Done():
		return r.ctx.Err()
	}
	r.held = r.held[1:]
	r.stats.Rows += blk.rows.Len()
	r.stats.Blocks++
	r.stats.Bytes += blk.bytes()
	return nil
}

// finish ends a run whose hand-over goroutine has ended: it waits until
// nothing copies into a block, returns the blocks still held, waits for
// the consumer to release the others, and closes the staging. It sets
// stats.Copy after a run without error.
func (r *streamRun) finish() error {
	st := r.st
	// Nothing may copy into a block once it is back in the pool: wait for
	// the copy stream (and, after an error, for every kernel too, so that
	// the caller can free or reuse its device buffers).
	syncErr := r.sg.dev.Do(func(c *Ctx) error {
		if r.failure() != nil {
			return errors.Join(st.cs.Sync(), c.Sync())
		}
		var err error
		r.stats.Copy, err = st.cs.Elapsed()
		return err
	})
	for _, blk := range r.held {
		blk.rows.Release()
	}
	// The consumer releases every block it was handed, also after an
	// error; the pinned memory must outlive its last reader.
	if _, err := st.pool.Drain(context.Background(), st.shape.pool); err != nil {
		return err
	}
	closeErr := r.sg.closeStaging(st)
	// After a failure the first error is the one to report: waiting and
	// closing then mostly fail with the same cause.
	if err := r.failure(); err != nil {
		return err
	}
	return errors.Join(syncErr, closeErr)
}

// openStaging allocates the pinned blocks of shape (from the backend's
// cache where it can), their events and a copy stream.
func (sg *Stager) openStaging(width int64, parents bool, shape StagingShape) (*staging, error) {
	st := &staging{shape: shape, width: width, parents: parents, byRows: map[*results.Rows]*StagedBlock{}}
	bytes := int64(shape.rows) * width * 4
	err := sg.dev.Do(func(c *Ctx) error {
		var err error
		if st.cs, err = c.newCopyStream(); err != nil {
			return err
		}
		for range shape.pool {
			blk := &StagedBlock{rows: &results.Rows{Width: int(width)}}
			st.blocks = append(st.blocks, blk)
			if blk.dist, err = sg.pinned.take(bytes); err != nil {
				return err
			}
			if parents {
				if blk.parent, err = sg.pinned.take(bytes); err != nil {
					return err
				}
			}
			if blk.copied, err = cu.MakeEvent(cu.DisableTiming); err != nil {
				return fmt.Errorf("gpu: creating an event: %w", err)
			}
		}
		return nil
	})
	if err != nil {
		return nil, errors.Join(err, sg.closeStaging(st))
	}
	rows := make([]*results.Rows, len(st.blocks))
	for i, blk := range st.blocks {
		rows[i] = blk.rows
		st.byRows[blk.rows] = blk
	}
	st.pool = results.NewPool(rows)
	return st, nil
}

// closeStaging destroys the events and the copy stream and returns the
// pinned memory to the backend's cache. Every block must be back.
func (sg *Stager) closeStaging(st *staging) error {
	return sg.dev.Do(func(c *Ctx) error {
		var errs []error
		var mem []*Pinned
		for _, blk := range st.blocks {
			if blk.copied != (cu.Event{}) {
				errs = append(errs, cu.DestroyEvent(&blk.copied))
			}
			for _, p := range []*Pinned{blk.dist, blk.parent} {
				if p != nil {
					mem = append(mem, p)
				}
			}
			blk.rows.Sources, blk.rows.Dist32, blk.rows.Parent = nil, nil, nil
		}
		if st.cs != nil {
			errs = append(errs, st.cs.Close())
		}
		errs = append(errs, sg.pinned.put(mem))
		return errors.Join(errs...)
	})
}

// setRows points blk's rows at request rows first.. of sources.
func (st *staging) setRows(blk *StagedBlock, first int, sources []int32) {
	r := blk.rows
	cells := int64(len(sources)) * st.width
	r.First, r.Sources, r.Width, r.Offsets, r.Vertices, r.Summaries = first, sources, int(st.width), nil, nil, nil
	r.Dist32, r.Parent = blk.dist.Int32s(cells), nil
	if st.parents {
		r.Parent = blk.parent.Int32s(cells)
	}
}

// waitCopied waits for the copies into the block.
func (blk *StagedBlock) waitCopied() error {
	if err := blk.copied.Synchronize(); err != nil {
		return fmt.Errorf("gpu: copying rows %d..%d to the host: %w", blk.rows.First, blk.rows.First+blk.rows.Len()-1, err)
	}
	return nil
}

// bytes is the size of the block's rows, parents included.
func (blk *StagedBlock) bytes() int64 {
	return int64(len(blk.rows.Dist32)+len(blk.rows.Vertices)+len(blk.rows.Parent)) * 4
}

// pinnedCache keeps the pinned buffers of finished runs for the next ones,
// since pinning memory costs far more than reusing it, up to limit bytes.
type pinnedCache struct {
	mu    sync.Mutex
	free  []*Pinned
	limit int64
}

// take returns the smallest cached buffer of at least bytes, or a new one.
// Call it on the device's thread.
func (pc *pinnedCache) take(bytes int64) (*Pinned, error) {
	pc.mu.Lock()
	best := -1
	for i, p := range pc.free {
		if p.bytes >= bytes && (best < 0 || p.bytes < pc.free[best].bytes) {
			best = i
		}
	}
	if best >= 0 {
		p := pc.free[best]
		pc.free = slices.Delete(pc.free, best, best+1)
		pc.mu.Unlock()
		return p, nil
	}
	pc.mu.Unlock()
	return AllocPinned(bytes)
}

// put caches ps, then frees the smallest buffers while the cache holds more
// than its limit. Call it on the device's thread.
func (pc *pinnedCache) put(ps []*Pinned) error {
	pc.mu.Lock()
	pc.free = append(pc.free, ps...)
	slices.SortFunc(pc.free, func(a, b *Pinned) int { return int(min(max(b.bytes-a.bytes, -1), 1)) })
	var kept int64
	var evict []*Pinned
	for i, p := range pc.free {
		if kept+p.bytes > pc.limit {
			evict = append(evict, pc.free[i:]...)
			pc.free = pc.free[:i]
			break
		}
		kept += p.bytes
	}
	pc.mu.Unlock()
	var errs []error
	for _, p := range evict {
		errs = append(errs, p.Free())
	}
	return errors.Join(errs...)
}

// freeAll frees every cached buffer. Call it on the device's thread.
func (pc *pinnedCache) freeAll() error {
	pc.mu.Lock()
	ps := pc.free
	pc.free = nil
	pc.mu.Unlock()
	var errs []error
	for _, p := range ps {
		errs = append(errs, p.Free())
	}
	return errors.Join(errs...)
}
