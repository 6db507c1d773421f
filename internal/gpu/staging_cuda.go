//go:build cuda

package gpu

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"gorgonia.org/cu"

	"github.com/pathflow/pathflow/internal/backend"
)

// Results reach the host through a run's staging: a backend.Pool of pinned
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

// stagedBlock is one pinned block of a run's pool: its rows as handed to
// the sink, the pinned memory they point into, and the event recorded
// after the copies into it.
type stagedBlock struct {
	rows         *backend.Rows
	dist, parent *pinned
	copied       cu.Event
}

// staging is one run's pool, blocks and copy stream.
type staging struct {
	shape   stagingShape
	width   int64
	parents bool
	blocks  []*stagedBlock
	byRows  map[*backend.Rows]*stagedBlock
	pool    *backend.Pool
	cs      *copyStream
}

// stageFuncs are what a kind of run plugs into Backend.stream. compute and
// copy run on the device's thread (inside Device.Do); neither may wait for
// the copy stream.
type stageFuncs struct {
	// compute runs block k's device work for its sources, or is nil. It
	// may wait for its own kernels (the copy of block k-1 goes on).
	compute func(c *Ctx, k int, sources []int32) error
	// copy enqueues on cs the copies of block k into blk, whose rows are
	// set (First, Sources, Width, Dist32 and Parent sized to them).
	copy func(c *Ctx, k int, blk *stagedBlock, cs *copyStream) error
	// prepare is host work on a copied block before the sink, or nil; it
	// runs on the hand-over goroutine.
	prepare func(*backend.Rows)
}

// firstError keeps the first error of several goroutines.
type firstError struct {
	mu  sync.Mutex
	err error
}

func (f *firstError) set(err error) {
	f.mu.Lock()
	if f.err == nil {
		f.err = err
	}
	f.mu.Unlock()
}

func (f *firstError) get() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.err
}

// stream hands the rows of sources, width values each, to sink in the
// blocks of shape, through pinned staging (see the top of this file). The
// first error from f, a copy, sink or ctx stops it. It returns when no
// goroutine of its own is left, nothing is copying into a block, and the
// consumer has released every block it was handed, so the pinned memory
// can be reused.
func (b *Backend) stream(ctx context.Context, width int64, sources []int32, parents bool,
	shape stagingShape, f stageFuncs, sink backend.Sink) (StreamStats, error) {
	var stats StreamStats
	if shape.blocks == 0 {
		return stats, ctx.Err()
	}
	st, err := b.openStaging(width, parents, shape)
	if err != nil {
		return stats, err
	}
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	var first firstError
	fail := func(err error) {
		first.set(err)
		cancel()
	}

	// The hand-over goroutine: blocks arrive in order, each copied.
	handoff := make(chan *stagedBlock)
	handed := make(chan struct{})
	go func() {
		defer close(handed)
		for blk := range handoff {
			if first.get() != nil {
				blk.rows.Release() // never handed over: the producer's to return
				continue
			}
			if f.prepare != nil {
				f.prepare(blk.rows)
			}
			// The sink owns the block from here, error or not.
			if err := sink(blk.rows); err != nil {
				fail(err)
			}
		}
	}()

	// held are the blocks taken from the pool and not handed over, oldest
	// first: at most two (one with device work).
	var held []*stagedBlock
	handOldest := func() error {
		blk := held[0]
		if err := b.dev.Do(func(*Ctx) error { return blk.waitCopied() }); err != nil {
			return err
		}
		if err := runCtx.Err(); err != nil {
			return err
		}
		select {
		case handoff <- blk:
		case <-runCtx.Done():
			return runCtx.Err()
		}
		held = held[1:]
		stats.Rows += blk.rows.Len()
		stats.Blocks++
		stats.Bytes += blk.bytes()
		return nil
	}
	begin := time.Now()
	err = func() error {
		for k := range shape.blocks {
			if err := runCtx.Err(); err != nil {
				return err
			}
			at, count := shape.span(k, len(sources))
			rowSources := sources[at : at+count]
			if f.compute != nil {
				if err := b.dev.Do(func(c *Ctx) error { return f.compute(c, k, rowSources) }); err != nil {
					return err
				}
				// Block k-1's copy ran beside those kernels: hand it over
				// before waiting for the pool.
				if len(held) > 0 {
					if err := handOldest(); err != nil {
						return err
					}
				}
			}
			rows, seq, err := st.pool.Next(runCtx)
			if err != nil {
				return err
			}
			blk := st.byRows[rows]
			held = append(held, blk)
			if seq != k {
				return fmt.Errorf("gpu: block %d came from the pool as number %d", k, seq)
			}
			st.setRows(blk, at, rowSources)
			err = b.dev.Do(func(c *Ctx) error {
				if err := st.cs.markStart(); err != nil {
					return err
				}
				if err := f.copy(c, k, blk, st.cs); err != nil {
					return err
				}
				if err := blk.copied.Record(st.cs.s); err != nil {
					return fmt.Errorf("gpu: recording an event: %w", err)
				}
				return nil
			})
			if err != nil {
				return err
			}
			// Without device work, block k's copy is queued behind block
			// k-1's: hand k-1 over while k copies.
			if len(held) == 2 {
				if err := handOldest(); err != nil {
					return err
				}
			}
		}
		for len(held) > 0 {
			if err := handOldest(); err != nil {
				return err
			}
		}
		return nil
	}()
	if err != nil {
		fail(err)
	}
	close(handoff)
	<-handed
	stats.Wall = time.Since(begin)

	// Nothing may copy into a block once it is back in the pool: wait for
	// the copy stream (and, after an error, for every kernel too, so that
	// the caller can free or reuse its device buffers).
	syncErr := b.dev.Do(func(c *Ctx) error {
		if first.get() != nil {
			return errors.Join(st.cs.sync(), c.Sync())
		}
		var err error
		stats.Copy, err = st.cs.elapsed()
		return err
	})
	for _, blk := range held {
		blk.rows.Release()
	}
	// The consumer releases every block it was handed, also after an
	// error; the pinned memory must outlive its last reader.
	if _, err := st.pool.Drain(context.Background(), shape.pool); err != nil {
		return stats, err
	}
	closeErr := b.closeStaging(st)
	if err := first.get(); err != nil {
		return stats, err
	}
	return stats, errors.Join(syncErr, closeErr)
}

// openStaging allocates the pinned blocks of shape (from the backend's
// cache where it can), their events and a copy stream.
func (b *Backend) openStaging(width int64, parents bool, shape stagingShape) (*staging, error) {
	st := &staging{shape: shape, width: width, parents: parents, byRows: map[*backend.Rows]*stagedBlock{}}
	bytes := int64(shape.rows) * width * 4
	err := b.dev.Do(func(c *Ctx) error {
		var err error
		if st.cs, err = c.newCopyStream(); err != nil {
			return err
		}
		for range shape.pool {
			blk := &stagedBlock{rows: &backend.Rows{Width: int(width)}}
			st.blocks = append(st.blocks, blk)
			if blk.dist, err = b.pinned.take(bytes); err != nil {
				return err
			}
			if parents {
				if blk.parent, err = b.pinned.take(bytes); err != nil {
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
		return nil, errors.Join(err, b.closeStaging(st))
	}
	rows := make([]*backend.Rows, len(st.blocks))
	for i, blk := range st.blocks {
		rows[i] = blk.rows
		st.byRows[blk.rows] = blk
	}
	st.pool = backend.NewPool(rows)
	return st, nil
}

// closeStaging destroys the events and the copy stream and returns the
// pinned memory to the backend's cache. Every block must be back.
func (b *Backend) closeStaging(st *staging) error {
	return b.dev.Do(func(c *Ctx) error {
		var errs []error
		var mem []*pinned
		for _, blk := range st.blocks {
			if blk.copied != (cu.Event{}) {
				errs = append(errs, cu.DestroyEvent(&blk.copied))
			}
			for _, p := range []*pinned{blk.dist, blk.parent} {
				if p != nil {
					mem = append(mem, p)
				}
			}
			blk.rows.Sources, blk.rows.Dist32, blk.rows.Parent = nil, nil, nil
		}
		if st.cs != nil {
			errs = append(errs, st.cs.close())
		}
		errs = append(errs, b.pinned.put(mem))
		return errors.Join(errs...)
	})
}

// setRows points blk's rows at request rows first.. of sources.
func (st *staging) setRows(blk *stagedBlock, first int, sources []int32) {
	r := blk.rows
	cells := int64(len(sources)) * st.width
	r.First, r.Sources, r.Width = first, sources, int(st.width)
	r.Dist32, r.Parent = blk.dist.int32s(cells), nil
	if st.parents {
		r.Parent = blk.parent.int32s(cells)
	}
}

// waitCopied waits for the copies into the block.
func (blk *stagedBlock) waitCopied() error {
	if err := blk.copied.Synchronize(); err != nil {
		return fmt.Errorf("gpu: copying rows %d..%d to the host: %w", blk.rows.First, blk.rows.First+blk.rows.Len()-1, err)
	}
	return nil
}

// bytes is the size of the block's rows, parents included.
func (blk *stagedBlock) bytes() int64 {
	return int64(len(blk.rows.Dist32)+len(blk.rows.Parent)) * 4
}

// pinnedCache keeps the pinned buffers of finished runs for the next ones,
// since pinning memory costs far more than reusing it, up to limit bytes.
type pinnedCache struct {
	mu    sync.Mutex
	free  []*pinned
	limit int64
}

// take returns the smallest cached buffer of at least bytes, or a new one.
// Call it on the device's thread.
func (pc *pinnedCache) take(bytes int64) (*pinned, error) {
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
	return allocPinned(bytes)
}

// put caches ps, then frees the smallest buffers while the cache holds more
// than its limit. Call it on the device's thread.
func (pc *pinnedCache) put(ps []*pinned) error {
	pc.mu.Lock()
	pc.free = append(pc.free, ps...)
	slices.SortFunc(pc.free, func(a, b *pinned) int { return int(min(max(b.bytes-a.bytes, -1), 1)) })
	var kept int64
	var evict []*pinned
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
		errs = append(errs, p.free())
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
		errs = append(errs, p.free())
	}
	return errors.Join(errs...)
}
