//go:build cuda

package allpairs

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"gorgonia.org/cu"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/gpu/device"
	"github.com/pathflow/pathflow/internal/gpu/spread"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/results"
)

// slabRun is the fast Floyd-Warshall on several devices (placement
// inRowSlabs): each device holds a contiguous block of whole tile rows.
// Round q's pivot rows belong to one device, the owner, which closes the
// pivot tile and relaxes its pivot rows, then lets the others copy those
// rows (the panel, tile x pitch values) from its memory, directly over
// peer links where enabled, else staged by the driver. Every device then
// relaxes its pivot-column tiles and all its other tiles from its own
// rows and the panel. Each device's work is on its own stream; events
// order the panel's copies after its owner's work, and the owner's next
// writes to those rows after the copies.
type slabRun struct {
	l     allPairsLayout
	parts []*slabPart
	// progress hears of the pivots the primary device has finished.
	progress func(done, total int64)
	traffic  Traffic
}

// slabPart is one device's share of a slabRun.
type slabPart struct {
	b *unit
	// first is the slab's first row (a vertex), rows its row count (whole
	// tiles; the last slab's may reach into the padding), tile0 its first
	// tile row.
	first, rows, tile0 int64
	// pitch is the matrix's row length.
	pitch           int64
	dist, parent    device.Buffer
	panel, negative device.Buffer
	graph           matrixGraph
	s               *device.Stream
	// receivers are the devices that copied this one's last panel: its
	// next launch waits for their copies.
	receivers []*slabPart
}

// tiles is the slab's tile row count.
func (p *slabPart) tiles() int64 { return p.rows / FastTile }

// realRows is the number of the slab's rows that are vertices.
func (p *slabPart) realRows(n int64) int64 { return max(0, min(p.rows, n-p.first)) }

// prepareSlabs allocates each device's slab and uploads the graph to it.
func prepareSlabs(devs []*unit, l allPairsLayout, g *graph.EdgeList) (*slabRun, error) {
	run := &slabRun{l: l}
	in := l.reverseGraph(g)
	for d, b := range devs {
		tile0, tiles := l.slabs[d], l.slabs[d+1]-l.slabs[d]
		if tiles == 0 {
			continue
		}
		p := &slabPart{b: b, tile0: tile0, first: tile0 * l.tile, rows: tiles * l.tile, pitch: l.pitch}
		run.parts = append(run.parts, p)
		if err := p.do(func(c *device.Ctx) error { return p.allocate(c, l, g, in) }); err != nil {
			return nil, errors.Join(err, run.close())
		}
	}
	return run, nil
}

// allocate reserves and fills the part's device memory.
func (p *slabPart) allocate(c *device.Ctx, l allPairsLayout, g *graph.EdgeList, in *graph.CSR) error {
	what := fmt.Sprintf("rows %d..%d of %s", p.first, p.first+p.rows-1, l.describe())
	need := l.slabBytes([]int64{0, p.tiles()})
	if err := c.Reserve(need, what); err != nil {
		return err
	}
	var err error
	if p.dist, err = c.Alloc(p.rows*l.pitch*4, "distance slab "+what); err != nil {
		return err
	}
	if l.parents {
		if p.parent, err = c.Alloc(p.rows*l.pitch*4, "parent slab "+what); err != nil {
			return err
		}
	}
	if p.panel, err = c.Alloc(l.tile*l.pitch*4, "pivot panel"); err != nil {
		return err
	}
	if p.negative, err = c.Alloc(8, "negative-cycle flag"); err != nil {
		return err
	}
	if p.graph, err = uploadMatrixGraph(c, g, in); err != nil {
		return err
	}
	p.s, err = c.NewStream(false)
	return err
}

// ops is the part's kernels on its stream; use it inside its Do.
func (p *slabPart) ops(c *device.Ctx) tileOps { return tileOps{c: c, s: p.s, negative: p.negative.Ptr} }

// compute runs the rounds on every device, then finishes each slab, and
// returns the wall time.
func (run *slabRun) compute(ctx context.Context) (time.Duration, error) {
	begin := time.Now()
	run.traffic = Traffic{}
	marks := &launchProgress{report: run.progress, total: run.l.n}
	err := run.launch(ctx, marks)
	// Wait for every device, also after a failure, before buffers can be
	// reused; the primary's marks belong to its thread.
	for i, p := range run.parts {
		err = errors.Join(err, p.do(func(c *device.Ctx) error {
			serr := c.Sync()
			if i == 0 {
				serr = errors.Join(serr, marks.finish(err == nil && serr == nil))
			}
			return serr
		}))
	}
	if err != nil {
		return 0, err
	}
	return time.Since(begin), run.checkNegative()
}

// launch enqueues the initialisation, every round and the finish.
func (run *slabRun) launch(ctx context.Context, marks *launchProgress) error {
	l := run.l
	for _, p := range run.parts {
		err := p.do(func(c *device.Ctx) error {
			if err := c.FillInt32(p.negative, math.MaxInt32); err != nil {
				return err
			}
			return initRows(c, p.s, l.allPairsPlan, p.dist.Ptr, 0, p.graph, p.first, p.rows)
		})
		if err != nil {
			return err
		}
	}
	tiles := l.pitch / l.tile
	owner := 0
	for q := range tiles {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("gpu: %s cancelled: %w", l.describe(), err)
		}
		for q >= run.parts[owner].tile0+run.parts[owner].tiles() {
			owner++
		}
		if err := run.round(q, owner, marks); err != nil {
			return err
		}
	}
	for _, p := range run.parts {
		err := p.do(func(c *device.Ctx) error {
			return finishRows(c, p.s, l.allPairsPlan, p.dist.Ptr, p.parent.Ptr, p.graph, p.negative.Ptr+4, p.first, p.realRows(l.n))
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// round enqueues round q, whose pivot rows are parts[owner]'s, on every
// device.
func (run *slabRun) round(q int64, owner int, marks *launchProgress) error {
	l, o := run.l, run.parts[owner]
	tiles, t, pitch := l.pitch/l.tile, l.tile, l.pitch
	local := q - o.tile0
	panel := cell(o.dist.Ptr, pitch, local*t, 0)
	mark := func(i int, p *slabPart) error {
		if i != 0 || (q+1)%8 != 0 && q+1 != tiles {
			return nil
		}
		return marks.mark((q+1)*t, p.s.CUDA())
	}
	err := o.do(func(c *device.Ctx) error {
		ops := o.ops(c)
		if err := o.waitForReceivers(); err != nil {
			return err
		}
		pivot := cell(panel, pitch, 0, q*t)
		if err := ops.closeTile(pivot, pitch, q*t); err != nil {
			return err
		}
		if err := ops.minPlus(panel, pitch, pivot, pitch, panel, pitch, 1, tiles, -1, q); err != nil {
			return err
		}
		if err := o.s.Mark(); err != nil {
			return err
		}
		if err := o.relax(ops, q, panel, local); err != nil {
			return err
		}
		return mark(owner, o)
	})
	if err != nil {
		return err
	}
	for i, p := range run.parts {
		if p == o {
			continue
		}
		err := p.do(func(c *device.Ctx) error {
			if err := p.waitForReceivers(); err != nil {
				return err
			}
			if err := p.s.WaitFor(o.s); err != nil {
				return err
			}
			if err := cu.MemcpyPeerAsync(p.panel.Ptr, c.Device().CUDAContext(), panel, o.b.dev.CUDAContext(), t*pitch*4, p.s.CUDA()); err != nil {
				return fmt.Errorf("gpu: copying pivot rows %d.. from device %d to device %d: %w", q*t, o.b.dev.Ordinal(), p.b.dev.Ordinal(), err)
			}
			if err := p.s.Mark(); err != nil {
				return err
			}
			if err := p.relax(p.ops(c), q, p.panel.Ptr, -1); err != nil {
				return err
			}
			return mark(i, p)
		})
		if err != nil {
			return err
		}
		o.receivers = append(o.receivers, p)
		run.traffic.DeviceToDevice += t * pitch * 4
	}
	return nil
}

// waitForReceivers makes the part's stream wait until the devices that
// copied its last panel are done with it; it waits once per panel.
func (p *slabPart) waitForReceivers() error {
	for _, r := range p.receivers {
		if err := p.s.WaitFor(r.s); err != nil {
			return err
		}
	}
	p.receivers = p.receivers[:0]
	return nil
}

// do runs fn on the part's device; its error names the device, so that a
// device failing mid-run is known by its ordinal.
func (p *slabPart) do(fn func(c *device.Ctx) error) error {
	if err := p.b.dev.Do(fn); err != nil {
		return fmt.Errorf("gpu: device %d: %w", p.b.dev.Ordinal(), err)
	}
	return nil
}

// relax enqueues round q's updates of the part's rows from the pivot rows
// at panel: the pivot-column tiles through the pivot tile, then every
// other tile. skipRow is the pivot rows' local tile row on their owner
// (already final), -1 elsewhere.
func (p *slabPart) relax(ops tileOps, q int64, panel cu.DevicePtr, skipRow int64) error {
	pitch, t := p.pitch, int64(FastTile)
	tiles := pitch / t
	col := cell(p.dist.Ptr, pitch, 0, q*t)
	if err := ops.minPlus(col, pitch, col, pitch, cell(panel, pitch, 0, q*t), pitch, p.tiles(), 1, skipRow, -1); err != nil {
		return err
	}
	return ops.minPlus(p.dist.Ptr, pitch, col, pitch, panel, pitch, p.tiles(), tiles, skipRow, q)
}

// checkNegative reads every device's negative-cycle flags.
func (run *slabRun) checkNegative() error {
	found := int32(math.MaxInt32)
	for _, p := range run.parts {
		flags := make([]int32, 2)
		if err := p.do(func(c *device.Ctx) error { return c.CopyInt32FromDevice(flags, p.negative) }); err != nil {
			return err
		}
		found = min(found, flags[0], flags[1])
	}
	if found != math.MaxInt32 {
		return &backend.NegativeCycleError{Backend: device.Name, Vertex: found}
	}
	return nil
}

// stream hands the requested rows to sink: each device streams the spans
// of sources in its slab through its own staging, all devices at once.
func (run *slabRun) stream(ctx context.Context, sources []int32, sink results.Sink) (device.StreamStats, error) {
	l := run.l
	bounds := make([]int64, len(run.parts)+1)
	for i, p := range run.parts {
		bounds[i+1] = p.first + p.rows
	}
	spans := splitSources(sources, bounds)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		total device.StreamStats
		first spread.FirstError
	)
	for i, p := range run.parts {
		mine := spansOf(spans, i)
		if len(mine) == 0 {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mineStats device.StreamStats
			defer func() {
				mu.Lock()
				total = total.Add(mineStats)
				mu.Unlock()
			}()
			for _, sp := range mine {
				st, err := p.b.streamMatrixRows(ctx, l.allPairsPlan, sp, p.dist.Ptr, p.parent.Ptr, p.first, sink)
				mineStats = mineStats.Then(st)
				if err != nil {
					first.Set(err)
					cancel()
					return
				}
			}
		}()
	}
	wg.Wait()
	return total, first.Get()
}

// close frees every device's buffers.
func (run *slabRun) close() error {
	var errs []error
	for _, p := range run.parts {
		errs = append(errs, p.do(func(c *device.Ctx) error {
			errs := []error{p.graph.free(c)}
			if p.s != nil {
				errs = append(errs, p.s.Close())
				p.s = nil
			}
			return errors.Join(append(errs, c.Free(&p.dist), c.Free(&p.parent), c.Free(&p.panel), c.Free(&p.negative))...)
		}))
	}
	run.parts = nil
	return errors.Join(errs...)
}

// setProgress makes compute report pivots to fn.
func (run *slabRun) setProgress(fn func(done, total int64)) { run.progress = fn }

// moved is the pivot panels' bytes between devices.
func (run *slabRun) moved() Traffic { return run.traffic }
