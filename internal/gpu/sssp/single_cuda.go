//go:build cuda

package sssp

import (
	"context"
	"errors"
	"fmt"

	"gorgonia.org/cu"

	"github.com/pathflow/pathflow/internal/gpu/device"
)

// singleBuffers is the device state of the variants that solve one source
// per round trip (Bellman-Ford, Dijkstra): a distance array, two per-vertex
// arrays whose meaning depends on the variant, one flag per step of a host
// check, and Dijkstra's reduction scratch. Parents go straight to the
// solver's result rows.
type singleBuffers struct {
	dist   device.Buffer
	first  device.Buffer // Bellman-Ford: previous round's distances; Dijkstra: frontier set F
	second device.Buffer // Bellman-Ford: changed-vertex flags; Dijkstra: unsettled set U
	steps  device.Buffer // one int per step launched between host checks
	// partial holds the minimum pass's per-block minima, scalar the
	// minimum itself, source the search's source.
	partial, scalar, source device.Buffer
	minBlocks               int
}

func (b *singleBuffers) free(c *device.Ctx) error {
	var errs []error
	for _, buf := range []*device.Buffer{&b.dist, &b.first, &b.second, &b.steps, &b.partial, &b.scalar, &b.source} {
		errs = append(errs, c.Free(buf))
	}
	return errors.Join(errs...)
}

// allocSingle allocates the buffers of a Bellman-Ford or Dijkstra solver.
func (s *Solver) allocSingle(c *device.Ctx) error {
	n := s.plan.n
	b := &singleBuffers{minBlocks: int(min(max((n+int64(s.plan.opts.ThreadsPerBlock)-1)/int64(s.plan.opts.ThreadsPerBlock), 1), int64(s.dev.Multiprocessors()*8)))}
	s.single = b
	if err := c.Reserve(12*n+int64(s.plan.opts.StepsPerCheck+b.minBlocks+2)*4, "single-source search state"); err != nil {
		return err
	}
	return allocBuffers(c, "", []bufferAlloc{
		{&b.dist, 4 * n, "distances"},
		{&b.first, 4 * n, "previous distances or frontier"},
		{&b.second, 4 * n, "flags or unsettled set"},
		{&b.steps, int64(s.plan.opts.StepsPerCheck) * 4, "step flags"},
		{&b.partial, int64(b.minBlocks) * 4, "partial minima"},
		{&b.scalar, 4, "minimum"},
		{&b.source, 4, "source"},
	})
}

// singleSearch runs one Bellman-Ford or Dijkstra search and leaves its
// distances (and parents) in row row of slot.
func (s *Solver) singleSearch(ctx context.Context, c *device.Ctx, source int32, withParents bool, slot *resultSlot, row int64, st *Stats) error {
	b := s.single
	if err := c.CopyInt32ToDevice(b.source, []int32{source}); err != nil {
		return err
	}
	var err error
	if s.plan.variant == VariantDijkstra {
		err = s.dijkstra(ctx, c, source, st)
	} else {
		err = s.bellmanFord(ctx, c, source, st)
	}
	if err != nil {
		return err
	}
	n := s.plan.n
	at := cuPtr(4 * row * n)
	// On the default stream, after the search and before the next one
	// reinitialises the distances.
	if err := cu.MemcpyDtoDAsync(slot.dist.Ptr+at, b.dist.Ptr, 4*n, cu.Stream{}); err != nil {
		return fmt.Errorf("gpu: copying a result row: %w", err)
	}
	if !withParents {
		return nil
	}
	return timed(c, st, func() error {
		st.Launches++
		return s.parentPass(c, b.dist, device.Buffer{Ptr: slot.parent.Ptr + at, Bytes: 4 * n}, b.source, 1)
	})
}

// firstZero returns the index of the first zero in flags, or -1.
func firstZero(flags []int32) int {
	for i, f := range flags {
		if f == 0 {
			return i
		}
	}
	return -1
}

// stepFlag is the device address of step i's flag.
func (b *singleBuffers) stepFlag(i int) device.Buffer {
	return device.Buffer{Ptr: b.steps.Ptr + cuPtr(4*int64(i)), Bytes: 4}
}

// errNoProgress reports a search that did not finish within its step bound,
// which correct kernels never do.
func errNoProgress(variant string, source int32, steps int64) error {
	return fmt.Errorf("gpu: %s from %d did not finish in %d steps", variant, source, steps)
}

// cuPtr converts a byte offset for device pointer arithmetic.
func cuPtr(bytes int64) cu.DevicePtr { return cu.DevicePtr(bytes) }
