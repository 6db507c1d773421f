//go:build cuda

package gpu

import (
	"errors"
	"fmt"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/hierarchy"
	"gorgonia.org/cu"
)

// chSweep computes the distances of a batched run's groups by PHAST
// sweeps over a contraction hierarchy (kernels/ch_*.cu) instead of
// near-far searches: the host runs each source's upward search (a few
// hundred vertices on a road network), the device seeds a group's 32
// lanes with them and settles the hierarchy level by level, top down, then
// copies the lanes into the group's slot of the batched state in original
// ids, where the batched run's gathers read them as they read a search's.
// A sweep touches every vertex once per group: O(n + Down arcs) per 32
// sources, with no frontier and no host round trip between levels.
type chSweep struct {
	h       *hierarchy.Hierarchy
	levels  []int32
	workers int
	down    *DeviceCSR
	// rank is h.Rank on the device; lanes one group's [n][32] distances
	// in hierarchy ids; seedAt and seedDist the seeds of one group, with
	// room for seedCap of them; overflow the sweep's int32 overflow flag.
	rank, lanes, seedAt, seedDist, overflow Buffer
	seedCap                                 int64
}

// newCHSweep checks that h can be swept by levels.
func newCHSweep(h *hierarchy.Hierarchy, workers int) (*chSweep, error) {
	levels, err := h.Levels()
	if err != nil {
		return nil, fmt.Errorf("gpu: ch: %w", err)
	}
	return &chSweep{h: h, levels: levels, workers: workers}, nil
}

// prepare uploads the Down arcs and the ranks and allocates the lanes,
// before the batched run sizes its groups from the memory left.
func (w *chSweep) prepare(c *Ctx) error {
	var err error
	if w.down, err = c.UploadCSR(&w.h.Down); err != nil {
		return err
	}
	n := int64(w.h.N)
	for _, a := range []struct {
		buf   *Buffer
		bytes int64
		what  string
	}{
		{&w.rank, n * 4, "ranks"},
		{&w.lanes, n * batchLanes * 4, "sweep lanes"},
		{&w.overflow, 4, "overflow flag"},
	} {
		if *a.buf, err = c.Alloc(a.bytes, "hierarchy "+a.what); err != nil {
			return err
		}
	}
	if err := c.CopyInt32ToDevice(w.rank, w.h.Rank); err != nil {
		return err
	}
	return c.FillInt32(w.overflow, 0)
}

// close frees what prepare and fill made.
func (w *chSweep) close(c *Ctx) error {
	errs := []error{c.Free(&w.rank), c.Free(&w.lanes), c.Free(&w.seedAt), c.Free(&w.seedDist), c.Free(&w.overflow)}
	if w.down != nil {
		errs = append(errs, w.down.Free(c))
	}
	return errors.Join(errs...)
}

// fill sweeps the groups of one launch (sources rows, 32 per group) and
// writes group g's distances, at most cutoff (farther ones INF32), to
// dist + g*n*32 int32 in original ids. It returns the kernel launches.
func (w *chSweep) fill(c *Ctx, rows []int32, dist Buffer, cutoff int64, blockSize int) (int64, error) {
	seeds, err := w.h.UpwardSearches(rows, w.workers)
	if err != nil {
		return 0, err
	}
	n := int64(w.h.N)
	launches := int64(0)
	var at []int64
	var d []int32
	for g := 0; g*batchLanes < len(rows); g++ {
		at, d = at[:0], d[:0]
		for j := range min(batchLanes, len(rows)-g*batchLanes) {
			s := seeds[g*batchLanes+j]
			for i, r := range s.Vertices {
				if s.Dist[i] >= int64(graph.Inf32) {
					return launches, fmt.Errorf("%w: an upward path from source %d is at least %d long", ErrNeedsInt64, rows[g*batchLanes+j], graph.Inf32)
				}
				at = append(at, int64(r)*batchLanes+int64(j))
				d = append(d, int32(s.Dist[i]))
			}
		}
		if err := w.upload(c, at, d); err != nil {
			return launches, err
		}
		if err := c.FillInt32(w.lanes, graph.Inf32); err != nil {
			return launches, err
		}
		dev := c.Device()
		if len(at) > 0 {
			if err := c.kernels.ChSeed(dev.linear(int64(len(at)), blockSize, true), w.lanes.Ptr, w.seedAt.Ptr, w.seedDist.Ptr, int64(len(at))); err != nil {
				return launches, err
			}
			launches++
		}
		for l := len(w.levels) - 2; l >= 0; l-- {
			lo, hi := int64(w.levels[l]), int64(w.levels[l+1])
			if err := c.kernels.ChSweep(dev.linear((hi-lo)*32, blockSize, true), w.down.Offsets.Ptr, w.down.Targets.Ptr,
				w.down.Weights.Ptr, w.lanes.Ptr, lo, hi, w.overflow.Ptr); err != nil {
				return launches, err
			}
			launches++
		}
		out := dist.Ptr + cu.DevicePtr(int64(g)*n*batchLanes*4)
		if err := c.kernels.ChPermute(dev.linear(n*32, blockSize, true), w.lanes.Ptr, w.rank.Ptr, n, cutoff, out); err != nil {
			return launches, err
		}
		launches++
	}
	flag := make([]int32, 1)
	if err := c.CopyInt32FromDevice(flag, w.overflow); err != nil {
		return launches, err
	}
	if flag[0] != 0 {
		return launches, fmt.Errorf("%w: a shortest path from one of sources %d.. is at least %d long", ErrNeedsInt64, rows[0], graph.Inf32)
	}
	return launches, nil
}

// upload copies a group's seeds to the device, growing their buffers when
// they are too small.
func (w *chSweep) upload(c *Ctx, at []int64, d []int32) error {
	if int64(len(at)) > w.seedCap {
		if err := errors.Join(c.Free(&w.seedAt), c.Free(&w.seedDist)); err != nil {
			return err
		}
		w.seedCap = max(int64(len(at)), 2*w.seedCap, 4096)
		var err error
		if w.seedAt, err = c.Alloc(w.seedCap*8, "hierarchy seeds"); err != nil {
			return err
		}
		if w.seedDist, err = c.Alloc(w.seedCap*4, "hierarchy seed distances"); err != nil {
			return err
		}
	}
	if len(at) == 0 {
		return nil
	}
	if err := c.CopyInt64ToDevice(w.seedAt, at); err != nil {
		return err
	}
	return c.CopyInt32ToDevice(w.seedDist, d)
}
