//go:build cuda

package sssp

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/pathflow/pathflow/internal/gpu/device"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/kernels"
)

// nearFarBlocksPerSM caps the blocks of one source at this many per
// multiprocessor: on an H200 a 4900 x 4900 grid ran 20 to 25% slower with
// every resident block (5 per SM) than with 2, and no faster with 1.
const nearFarBlocksPerSM = 2

// cooperativeLaunch is the shape of a cooperative search launch: rows
// groups of blocks blocks each (blockIdx.y picks the group), of threads
// threads.
func cooperativeLaunch(blocks, rows, threads int) kernels.Config {
	return kernels.Config{Grid: kernels.Dim3{X: blocks, Y: rows}, Block: kernels.Dim3{X: threads}}
}

// nearFarBuffers is the device state of a batch of near-far searches:
// per vertex a 64-bit word (distance and queue stamp), a far-pile flag, two
// near-queue and two far-pile slots. Results go to the solver's result
// rows, so the next batch can start while they are copied.
type nearFarBuffers struct {
	rows                             int
	words, onFar, nearQueue, farPile device.Buffer
	state, sources                   device.Buffer
	search                           *device.CooperativeKernel
}

func (b *nearFarBuffers) free(c *device.Ctx) error {
	var errs []error
	for _, buf := range []*device.Buffer{&b.words, &b.onFar, &b.nearQueue, &b.farPile, &b.state, &b.sources} {
		errs = append(errs, c.Free(buf))
	}
	return errors.Join(errs...)
}

// close frees the buffers and unloads the kernel.
func (b *nearFarBuffers) close(c *device.Ctx) error {
	err := b.free(c)
	if b.search != nil {
		err = errors.Join(err, b.search.Unload())
		b.search = nil
	}
	return err
}

// prepareNearFar loads the kernel and counts how many of its blocks can be
// resident at once.
func (s *Solver) prepareNearFar(c *device.Ctx) error {
	fn, err := loadKernel("sssp_near_far")
	if err != nil {
		return err
	}
	s.nf = &nearFarBuffers{search: fn}
	perSM, err := fn.MaxActiveBlocksPerSM(s.plan.opts.ThreadsPerBlock)
	if err != nil {
		return err
	}
	if perSM < 1 {
		return fmt.Errorf("gpu: sssp_near_far cannot run blocks of %d threads", s.plan.opts.ThreadsPerBlock)
	}
	s.resident = perSM * s.dev.Multiprocessors()
	return nil
}

// ensureNearFar makes the buffers hold s.batch rows.
func (s *Solver) ensureNearFar(c *device.Ctx) error {
	b := s.nf
	if b.rows >= s.batch {
		return nil
	}
	if err := b.free(c); err != nil {
		return err
	}
	b.rows = 0
	cells := int64(s.batch) * s.plan.n
	if err := c.Reserve(nearFarRowInts*4*cells+int64(s.batch)*(nfState+1)*4, "near-far search state"); err != nil {
		return err
	}
	if err := allocBuffers(c, "near-far ", []bufferAlloc{
		{&b.words, 8 * cells, "distances and stamps"},
		{&b.onFar, 4 * cells, "far-pile flags"},
		{&b.nearQueue, 8 * cells, "near queues"},
		{&b.farPile, 8 * cells, "far piles"},
		{&b.state, int64(s.batch) * nfState * 4, "search state"},
		{&b.sources, int64(s.batch) * 4, "sources"},
	}); err != nil {
		return err
	}
	b.rows = s.batch
	return nil
}

// nearFarBatch solves up to s.batch sources in one cooperative launch and
// leaves their rows (and parents) in slot. It waits for the kernels, to
// read the searches' state, but not for copies in flight.
func (s *Solver) nearFarBatch(c *device.Ctx, sources []int32, withParents bool, slot *resultSlot, st *Stats) error {
	b := s.nf
	k := int64(len(sources))
	n := s.plan.n
	if err := c.CopyInt32ToDevice(b.sources, sources); err != nil {
		return err
	}
	bs := s.plan.opts.ThreadsPerBlock
	err := timed(c, st, func() error {
		cells := s.dev.Linear(k*n, bs, true)
		if err := c.Kernels().SSSPNearFarInit(cells, b.words.Ptr, b.onFar.Ptr, b.nearQueue.Ptr, b.state.Ptr,
			b.sources.Ptr, n, k, s.plan.delta); err != nil {
			return err
		}
		g := s.graph.Forward()
		err := c.Kernels().SSSPNearFar(b.search, cooperativeLaunch(s.blocks, int(k), bs),
			g.Offsets.Ptr, g.Targets.Ptr, g.Weights.Ptr, n,
			b.words.Ptr, b.onFar.Ptr, b.nearQueue.Ptr, b.farPile.Ptr,
			b.state.Ptr, s.plan.delta, s.plan.opts.Timeout.Nanoseconds(), int64(s.plan.localRounds))
		if err != nil {
			return err
		}
		if err := c.Kernels().SSSPNearFarFinish(cells, b.words.Ptr, slot.dist.Ptr, k*n); err != nil {
			return err
		}
		st.Launches += 3
		if withParents {
			st.Launches++
			return s.parentPass(c, slot.dist, slot.parent, b.sources, k)
		}
		return nil
	})
	if err != nil {
		return err
	}
	state := make([]int32, k*nfState)
	if err := c.CopyInt32FromDevice(state, b.state); err != nil {
		return err
	}
	st.HostSyncs++
	for g := range k {
		row := state[g*nfState : (g+1)*nfState]
		if row[nfAbort] != 0 {
			return fmt.Errorf("gpu: near-far search from %d ran past its %v time limit (%d steps done)",
				sources[g], s.plan.opts.Timeout, row[nfSteps])
		}
		if row[nfOverflow] != 0 {
			return fmt.Errorf("%w: a shortest path from %d is at least %d long", device.ErrNeedsInt64, sources[g], graph.Inf32)
		}
		st.Steps += int64(row[nfSteps])
		st.Splits += int64(row[nfSplits])
		st.Relaxations += int64(uint64At(row, nfRelaxed))
		st.Improvements += int64(uint64At(row, nfImproved))
	}
	return nil
}

// uint64At reads the little-endian uint64 the kernel keeps in two int32
// slots of a state row.
func uint64At(row []int32, at int) uint64 {
	var b [8]byte
	binary.LittleEndian.PutUint32(b[:4], uint32(row[at]))
	binary.LittleEndian.PutUint32(b[4:], uint32(row[at+1]))
	return binary.LittleEndian.Uint64(b[:])
}
