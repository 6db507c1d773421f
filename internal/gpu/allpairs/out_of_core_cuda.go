//go:build cuda

package allpairs

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"gorgonia.org/cu"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/gpu/device"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/results"
)

// outOfCoreRun is the fast Floyd-Warshall on a matrix larger than the
// device's memory (placement outOfCore), the blocked scheme one level up:
// the matrix lives in page-locked host memory, cut into super-tiles of
// edge B. Super-round R
//
//  1. stages the pivot super-row R (B x n) and super-column R (n x B) on the
//     device,
//  2. closes the pivot super-tile inside the super-row (closeBlock),
//  3. relaxes the rest of the super-row and of the super-column through
//     it, one pivot tile at a time (exact, as in closeBlock: the pivot
//     super-tile is closed), and writes both back,
//  4. streams every other super-tile through the device: in, relaxed
//     through the super-column's and super-row's strips, out.
//
// Step 4 keeps three super-tile buffers in flight on three streams: one
// arriving, one being relaxed, one leaving, so the copies (8 n^3 / B bytes
// over the run) hide behind the n^3 relaxations when B is large enough
// (docs/multi-gpu.md). Parents are derived per stripe of rows as they are
// streamed out, as the row slabs do.
type outOfCoreRun struct {
	b    *unit
	l    allPairsLayout
	host *device.Pinned
	// rowPanel holds a super-row (B x pitch) or a stripe of rows when
	// initialising and streaming; colPanel a super-column (pitch x B, rows
	// B apart), a second stripe when initialising, and a stripe's parents
	// when streaming.
	rowPanel, colPanel device.Buffer
	tiles              [3]device.Buffer
	negative           device.Buffer
	graph              matrixGraph
	// comp runs the kernels; up and down the copies to and from the host.
	comp, up, down *device.Stream
	// arrived, relaxed and left are each super-tile buffer's events.
	arrived, relaxed, left [3]cu.Event
	progress               func(done, total int64)
	traffic                Traffic
}

// prepareOutOfCore allocates the host matrix and the device buffers and
// uploads the graph.
func prepareOutOfCore(b *unit, l allPairsLayout, g *graph.EdgeList) (*outOfCoreRun, error) {
	r := &outOfCoreRun{b: b, l: l}
	in := l.reverseGraph(g)
	err := r.do(func(c *device.Ctx) error {
		if err := c.Reserve(l.deviceBytes, l.describe()); err != nil {
			return err
		}
		var err error
		if r.host, err = device.AllocPinned(l.hostBytes); err != nil {
			return fmt.Errorf("gpu: %s keeps its %s matrix in host memory: %w", l.describe(), device.FormatBytes(l.hostBytes), err)
		}
		panel := l.super * l.pitch * 4
		if r.rowPanel, err = c.Alloc(panel, "pivot super-row"); err != nil {
			return err
		}
		if r.colPanel, err = c.Alloc(panel, "pivot super-column"); err != nil {
			return err
		}
		for i := range r.tiles {
			if r.tiles[i], err = c.Alloc(l.super*l.super*4, "super-tile"); err != nil {
				return err
			}
		}
		if r.negative, err = c.Alloc(8, "negative-cycle flag"); err != nil {
			return err
		}
		if r.graph, err = uploadMatrixGraph(c, g, in); err != nil {
			return err
		}
		return r.openStreams(c)
	})
	if err != nil {
		return nil, errors.Join(err, r.close())
	}
	return r, nil
}

// do runs fn on the run's device; its error names the device.
func (r *outOfCoreRun) do(fn func(c *device.Ctx) error) error {
	if err := r.b.dev.Do(fn); err != nil {
		return fmt.Errorf("gpu: device %d: %w", r.b.dev.Ordinal(), err)
	}
	return nil
}

// openStreams creates the three streams and the buffers' events.
func (r *outOfCoreRun) openStreams(c *device.Ctx) error {
	var err error
	if r.comp, err = c.NewStream(false); err != nil {
		return err
	}
	if r.up, err = c.NewCopyingStream(); err != nil {
		return err
	}
	if r.down, err = c.NewCopyingStream(); err != nil {
		return err
	}
	for _, evs := range []*[3]cu.Event{&r.arrived, &r.relaxed, &r.left} {
		for i := range evs {
			if evs[i], err = cu.MakeEvent(cu.DisableTiming); err != nil {
				return fmt.Errorf("gpu: creating an event: %w", err)
			}
		}
	}
	return nil
}

// Traffic counts the bytes a run's compute moved between memories.
type Traffic struct {
	// HostToDevice and DeviceToHost are copies over the host link;
	// DeviceToDevice copies between devices (pivot panels).
	HostToDevice, DeviceToHost, DeviceToDevice int64
}

// ops is the run's kernels on its compute stream.
func (r *outOfCoreRun) ops(c *device.Ctx) tileOps {
	return tileOps{c: c, s: r.comp, negative: r.negative.Ptr}
}

// compute initialises the host matrix and runs every super-round, then
// checks for negative cycles; it returns the wall time.
func (r *outOfCoreRun) compute(ctx context.Context) (time.Duration, error) {
	begin := time.Now()
	r.traffic = Traffic{}
	marks := &launchProgress{report: r.progress, total: r.l.n}
	err := r.do(func(c *device.Ctx) error {
		if err := c.FillInt32(r.negative, math.MaxInt32); err != nil {
			return err
		}
		return r.initialise(c)
	})
	for s := int64(0); err == nil && s < r.l.superTiles(); s++ {
		if err = ctx.Err(); err != nil {
			err = fmt.Errorf("gpu: %s cancelled: %w", r.l.describe(), err)
			break
		}
		err = r.do(func(c *device.Ctx) error {
			if err := r.superRound(c, s); err != nil {
				return err
			}
			first, size := r.l.superSpan(s)
			return marks.mark(min(first+size, r.l.n), r.comp.CUDA())
		})
	}
	err = errors.Join(err, r.do(func(c *device.Ctx) error {
		serr := c.Sync()
		return errors.Join(serr, marks.finish(err == nil && serr == nil))
	}))
	if err != nil {
		return 0, err
	}
	return time.Since(begin), r.checkNegative()
}

// initialise fills the host matrix stripe by stripe: the arcs written into
// initialised rows on the device, then copied down.
func (r *outOfCoreRun) initialise(c *device.Ctx) error {
	l := r.l
	bufs := []device.Buffer{r.rowPanel, r.colPanel}
	for s := range l.superTiles() {
		first, rows := l.superSpan(s)
		buf := bufs[s%2]
		// The previous stripe has left (and with it this buffer's last).
		if err := r.comp.WaitFor(r.down); err != nil {
			return err
		}
		if err := initRows(c, r.comp, l.allPairsPlan, buf.Ptr, 0, r.graph, first, rows); err != nil {
			return err
		}
		if err := r.comp.Mark(); err != nil {
			return err
		}
		if err := r.down.WaitFor(r.comp); err != nil {
			return err
		}
		if err := r.toHost(buf.Ptr, l.pitch, first, 0, rows, l.pitch); err != nil {
			return err
		}
		if err := r.down.Mark(); err != nil {
			return err
		}
	}
	return nil
}

// toHost enqueues on the down stream the copy of the rows x cols block at
// src (rows srcPitch values apart) to the host matrix at (row, col).
func (r *outOfCoreRun) toHost(src cu.DevicePtr, srcPitch, row, col, rows, cols int64) error {
	pitch := r.l.pitch
	off := (row*pitch + col) * 4
	r.traffic.DeviceToHost += rows * cols * 4
	return r.host.CopyRowsFromDevice(off, pitch*4, src, srcPitch*4, cols*4, rows, r.down.CUDA())
}

// toDevice enqueues on the up stream the copy of the rows x cols block of
// the host matrix at (row, col) to dst (rows dstPitch values apart).
func (r *outOfCoreRun) toDevice(dst cu.DevicePtr, dstPitch, row, col, rows, cols int64) error {
	pitch := r.l.pitch
	r.traffic.HostToDevice += rows * cols * 4
	return r.host.CopyRowsToDevice((row*pitch+col)*4, pitch*4, dst, dstPitch*4, cols*4, rows, r.up.CUDA())
}

// superRound enqueues super-round s (see outOfCoreRun).
func (r *outOfCoreRun) superRound(c *device.Ctx, s int64) error {
	l, ops := r.l, r.ops(c)
	r0, size := l.superSpan(s)
	pitch, t, ld := l.pitch, l.tile, l.super
	pivotTiles := size / t
	// 1. Stage the super-row and super-column once the previous round's
	// tiles have left and its kernels no longer read the panels.
	if err := r.up.WaitFor(r.down); err != nil {
		return err
	}
	if err := r.up.WaitFor(r.comp); err != nil {
		return err
	}
	if err := r.toDevice(r.rowPanel.Ptr, pitch, r0, 0, size, pitch); err != nil {
		return err
	}
	if err := r.toDevice(r.colPanel.Ptr, ld, 0, r0, pitch, size); err != nil {
		return err
	}
	if err := r.up.Mark(); err != nil {
		return err
	}
	if err := r.comp.WaitFor(r.up); err != nil {
		return err
	}
	// 2. Close the pivot super-tile.
	pivot := cell(r.rowPanel.Ptr, pitch, 0, r0)
	if err := ops.closeBlock(pivot, pitch, pivotTiles, r0); err != nil {
		return err
	}
	// 3. The rest of the super-row and super-column, then write them back.
	for _, span := range outside(r0, size, pitch) {
		if err := r.relaxSuperRow(ops, pivot, pivotTiles, span); err != nil {
			return err
		}
		if err := r.relaxSuperColumn(ops, pivot, pivotTiles, span); err != nil {
			return err
		}
	}
	if err := r.comp.Mark(); err != nil {
		return err
	}
	if err := r.down.WaitFor(r.comp); err != nil {
		return err
	}
	if err := r.toHost(r.rowPanel.Ptr, pitch, r0, 0, size, pitch); err != nil {
		return err
	}
	for _, span := range outside(r0, size, pitch) {
		if err := r.toHost(cell(r.colPanel.Ptr, ld, span[0], 0), ld, span[0], r0, span[1]-span[0], size); err != nil {
			return err
		}
	}
	// 4. Every other super-tile.
	if err := r.relaxOthers(ops, s, pivotTiles); err != nil {
		return err
	}
	return errors.Join(r.comp.Mark(), r.down.Mark())
}

// outside is the vertex spans [lo, hi) of 0 .. pitch-1 outside the
// super-tile at r0 of edge size: none, one or two.
func outside(r0, size, pitch int64) [][2]int64 {
	var spans [][2]int64
	if r0 > 0 {
		spans = append(spans, [2]int64{0, r0})
	}
	if r0+size < pitch {
		spans = append(spans, [2]int64{r0 + size, pitch})
	}
	return spans
}

// relaxSuperRow relaxes the super-row's columns span through the closed
// pivot super-tile at pivot, one pivot tile q at a time: first every row
// tile but q through row tile q, then row tile q through the pivot tile
// (q, q), so that no launch reads a tile it writes from another block.
func (r *outOfCoreRun) relaxSuperRow(ops tileOps, pivot cu.DevicePtr, pivotTiles int64, span [2]int64) error {
	pitch, t := r.l.pitch, r.l.tile
	c := cell(r.rowPanel.Ptr, pitch, 0, span[0])
	cols := (span[1] - span[0]) / t
	for q := range pivotTiles {
		rowQ := cell(c, pitch, q*t, 0)
		if err := ops.minPlus(c, pitch, cell(pivot, pitch, 0, q*t), pitch, rowQ, pitch, pivotTiles, cols, q, -1); err != nil {
			return err
		}
		if err := ops.minPlus(rowQ, pitch, cell(pivot, pitch, q*t, q*t), pitch, rowQ, pitch, 1, cols, -1, -1); err != nil {
			return err
		}
	}
	return nil
}

// relaxSuperColumn is relaxSuperRow for the super-column's rows span.
func (r *outOfCoreRun) relaxSuperColumn(ops tileOps, pivot cu.DevicePtr, pivotTiles int64, span [2]int64) error {
	pitch, t, ld := r.l.pitch, r.l.tile, r.l.super
	c := cell(r.colPanel.Ptr, ld, span[0], 0)
	rows := (span[1] - span[0]) / t
	for q := range pivotTiles {
		colQ := cell(c, ld, 0, q*t)
		if err := ops.minPlus(c, ld, colQ, ld, cell(pivot, pitch, q*t, 0), pitch, rows, pivotTiles, -1, q); err != nil {
			return err
		}
		if err := ops.minPlus(colQ, ld, colQ, ld, cell(pivot, pitch, q*t, q*t), pitch, rows, 1, -1, -1); err != nil {
			return err
		}
	}
	return nil
}

// relaxOthers streams every super-tile outside super-row and super-column
// s through the device, three at a time (see outOfCoreRun).
func (r *outOfCoreRun) relaxOthers(ops tileOps, s, pivotTiles int64) error {
	l := r.l
	pitch, t, ld := l.pitch, l.tile, l.super
	k := 0
	for i := range l.superTiles() {
		for j := range l.superTiles() {
			if i == s || j == s {
				continue
			}
			buf := k % len(r.tiles)
			k++
			tile := r.tiles[buf].Ptr
			i0, rows := l.superSpan(i)
			j0, cols := l.superSpan(j)
			// In once the buffer's last tile has left.
			if err := r.up.CUDA().Wait(r.left[buf], 0); err != nil {
				return fmt.Errorf("gpu: ordering copies: %w", err)
			}
			if err := r.toDevice(tile, ld, i0, j0, rows, cols); err != nil {
				return err
			}
			if err := record(r.arrived[buf], r.up); err != nil {
				return err
			}
			if err := r.comp.CUDA().Wait(r.arrived[buf], 0); err != nil {
				return fmt.Errorf("gpu: ordering kernels after copies: %w", err)
			}
			for q := range pivotTiles {
				a := cell(r.colPanel.Ptr, ld, i0, q*t)
				b := cell(r.rowPanel.Ptr, pitch, q*t, j0)
				if err := ops.minPlus(tile, ld, a, ld, b, pitch, rows/t, cols/t, -1, -1); err != nil {
					return err
				}
			}
			if err := record(r.relaxed[buf], r.comp); err != nil {
				return err
			}
			if err := r.down.CUDA().Wait(r.relaxed[buf], 0); err != nil {
				return fmt.Errorf("gpu: ordering copies after kernels: %w", err)
			}
			if err := r.toHost(tile, ld, i0, j0, rows, cols); err != nil {
				return err
			}
			if err := record(r.left[buf], r.down); err != nil {
				return err
			}
		}
	}
	return nil
}

// record records ev after the work enqueued on s so far.
func record(ev cu.Event, s *device.Stream) error {
	if err := ev.Record(s.CUDA()); err != nil {
		return fmt.Errorf("gpu: recording an event: %w", err)
	}
	return nil
}

// checkNegative reports a negative cycle found by a pivot closure or seen
// on the host matrix's diagonal.
func (r *outOfCoreRun) checkNegative() error {
	flags := make([]int32, 2)
	if err := r.do(func(c *device.Ctx) error { return c.CopyInt32FromDevice(flags, r.negative) }); err != nil {
		return err
	}
	found := flags[0]
	m := r.host.Int32s(r.l.pitch * r.l.pitch)
	for v := int64(0); v < r.l.n && int32(v) < found; v++ {
		if m[v*r.l.pitch+v] < 0 {
			found = int32(v)
		}
	}
	if found != math.MaxInt32 {
		return &backend.NegativeCycleError{Backend: device.Name, Vertex: found}
	}
	return nil
}

// stream hands the requested rows to sink, one stripe of B rows at a
// time: the stripe goes up to the device, is finished there (unreachable
// sums, parents) and streams down through the staging blocks.
func (r *outOfCoreRun) stream(ctx context.Context, sources []int32, sink results.Sink) (device.StreamStats, error) {
	l := r.l
	bounds := make([]int64, l.superTiles()+1)
	for s := range l.superTiles() {
		first, size := l.superSpan(s)
		bounds[s+1] = first + size
	}
	spans := splitSources(sources, bounds)
	var total device.StreamStats
	for s := range l.superTiles() {
		mine := spansOf(spans, int(s))
		if len(mine) == 0 {
			continue
		}
		first, size := l.superSpan(s)
		err := r.do(func(c *device.Ctx) error {
			if err := r.toDevice(r.rowPanel.Ptr, l.pitch, first, 0, size, l.pitch); err != nil {
				return err
			}
			if err := r.up.Mark(); err != nil {
				return err
			}
			if err := r.comp.WaitFor(r.up); err != nil {
				return err
			}
			rows := max(0, min(size, l.n-first))
			if err := finishRows(c, r.comp, l.allPairsPlan, r.rowPanel.Ptr, r.colPanel.Ptr, r.graph, r.negative.Ptr+4, first, rows); err != nil {
				return err
			}
			return c.Sync()
		})
		if err != nil {
			return total, err
		}
		for _, sp := range mine {
			st, err := r.b.streamMatrixRows(ctx, l.allPairsPlan, sp, r.rowPanel.Ptr, r.colPanel.Ptr, first, sink)
			total = total.Then(st)
			if err != nil {
				return total, err
			}
		}
	}
	return total, nil
}

// close frees the device buffers, the streams and the host matrix.
func (r *outOfCoreRun) close() error {
	return r.do(func(c *device.Ctx) error {
		errs := []error{r.graph.free(c)}
		for _, s := range []**device.Stream{&r.comp, &r.up, &r.down} {
			if *s != nil {
				errs = append(errs, (*s).Close())
				*s = nil
			}
		}
		for _, evs := range []*[3]cu.Event{&r.arrived, &r.relaxed, &r.left} {
			for i := range evs {
				if evs[i] != (cu.Event{}) {
					errs = append(errs, cu.DestroyEvent(&evs[i]))
				}
			}
		}
		for i := range r.tiles {
			errs = append(errs, c.Free(&r.tiles[i]))
		}
		errs = append(errs, c.Free(&r.rowPanel), c.Free(&r.colPanel), c.Free(&r.negative), r.host.Free())
		return errors.Join(errs...)
	})
}

// setProgress makes compute report pivots to fn.
func (r *outOfCoreRun) setProgress(fn func(done, total int64)) { r.progress = fn }

// moved is the bytes copied between the host matrix and the device.
func (r *outOfCoreRun) moved() Traffic { return r.traffic }
