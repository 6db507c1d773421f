//go:build cuda

package sssp

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/gpu/device"
	"github.com/pathflow/pathflow/internal/gpu/spread"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/results"
)

// Stats counts what one Solve did, summed over its sources.
type Stats struct {
	// Variant is the variant that ran.
	Variant string
	// Sources and Batches: searches run, and device round trips that ran
	// them (near-far solves a batch of sources per launch; the others one).
	Sources, Batches int
	// Steps: Bellman-Ford rounds, Dijkstra steps (one settled distance
	// each) or near-far steps (grid barriers), up to the one that found
	// nothing left to do.
	Steps int64
	// Splits: near-far far-pile splits (buckets).
	Splits int64
	// Launches: kernel launches, including rounds launched past
	// convergence while the host had not yet looked.
	Launches int64
	// HostSyncs: times the host waited for the device, to test for
	// convergence or to read results.
	HostSyncs int64
	// Relaxations and Improvements: near-far arcs scanned and relaxations
	// that lowered a distance.
	Relaxations, Improvements int64
	// Stopped: batched groups that stopped once their targets were
	// settled, before their searches ran out.
	Stopped int
	// Swept: with ch, the vertices each PHAST sweep settled.
	Swept int64
	// SparseBlocks: batched launches whose rows left the device as their
	// cells within the cutoff (backend.Request.SparseRows).
	SparseBlocks int
	// Prepare is the wall time of setting a run up on the device: the
	// graph's upload, the reverse arcs, the buffers.
	Prepare time.Duration
	// Upload is the part of a batched run's Prepare that sends the graph
	// (or the hierarchy) with its reverse arcs.
	Upload time.Duration
	// Setup is a batched run's host planning before Prepare, Release the
	// freeing of its device memory after the stream.
	Setup, Release time.Duration
	// Kernel is the device time of the searches, parent passes included,
	// from CUDA events; copies to the host are not in it.
	Kernel time.Duration
	// Stream is how the rows reached the host.
	Stream device.StreamStats
	// Delta, LocalRounds, BlocksPerSource and BatchSize are the near-far
	// parameters used; ThreadsPerBlock the threads per block.
	Delta                                                    int64
	LocalRounds, BlocksPerSource, BatchSize, ThreadsPerBlock int
}

func (s *Stats) add(o Stats) {
	s.Sources += o.Sources
	s.Batches += o.Batches
	s.Steps += o.Steps
	s.Splits += o.Splits
	s.Launches += o.Launches
	s.HostSyncs += o.HostSyncs
	s.Relaxations += o.Relaxations
	s.Improvements += o.Improvements
	s.Stopped += o.Stopped
	s.SparseBlocks += o.SparseBlocks
	s.Kernel += o.Kernel
}

// Solver is a graph on the device with the buffers of one
// single-source variant, reused by every Solve until Close: the graph is
// uploaded once however many sources are solved. A solver serves one Solve
// at a time; use one per goroutine.
type Solver struct {
	b     *unit
	dev   *device.Device
	plan  ssspPlan
	host  *graph.CSR
	graph *DeviceGraph

	// batch is how many sources one device round trip solves; blocks the
	// near-far blocks per source; resident how many near-far blocks fit
	// on the device at once. Solve sets batch and blocks.
	batch, blocks, resident int

	nf     *nearFarBuffers
	single *singleBuffers
	// slots are the device rows a block's results are written to, two so
	// that one block's kernels run while the other's rows are copied.
	slots [2]resultSlot
}

// resultSlot holds a block's rows on the device: rows x n distances and,
// when allocated with parents, as many parents.
type resultSlot struct {
	rows         int64
	dist, parent device.Buffer
	// cells, in a batched run, holds the row offsets of the sparse rows
	// the slot holds (distances, then their vertices, in dist); nil when it
	// holds whole or narrowed rows.
	cells []int
}

// Prepare validates the request, uploads g to gpu's device and allocates
// the variant's buffers; workers host goroutines mend parent rows. Errors:
// device.ErrNeedsInt64 (wrapped) when distances might not fit int32,
// device.ErrNotSupported (wrapped) for unknown names or variants and for
// near-far or Dijkstra on negative weights, *device.OutOfMemoryError.
// O(n + m) host work.
func Prepare(gpu *device.Stager, workers int, g *graph.CSR, alg backend.Algorithm, opts Options) (*Solver, error) {
	return newUnit(gpu, workers).prepare(g, alg, opts)
}

// prepare is Prepare on b.
func (b *unit) prepare(g *graph.CSR, alg backend.Algorithm, opts Options) (*Solver, error) {
	plan, err := planSSSP(g, alg, opts)
	if err != nil {
		return nil, err
	}
	s := &Solver{b: b, dev: b.dev, plan: plan, host: g, batch: 1, blocks: 1}
	err = b.dev.Do(func(c *device.Ctx) error {
		var err error
		if s.graph, err = uploadGraph(c, g); err != nil {
			return err
		}
		if plan.variant == VariantNearFar {
			return s.prepareNearFar(c)
		}
		return s.allocSingle(c)
	})
	if err != nil {
		return nil, errors.Join(err, s.Close())
	}
	return s, nil
}

// Variant is the variant the solver runs.
func (s *Solver) Variant() string { return s.plan.variant }

// Close frees the device memory.
func (s *Solver) Close() error {
	return s.dev.Do(func(c *device.Ctx) error {
		var errs []error
		if s.graph != nil {
			errs = append(errs, s.graph.Free(c))
		}
		if s.nf != nil {
			errs = append(errs, s.nf.close(c))
		}
		if s.single != nil {
			errs = append(errs, s.single.free(c))
		}
		for i := range s.slots {
			errs = append(errs, c.Free(&s.slots[i].dist), c.Free(&s.slots[i].parent))
			s.slots[i].rows = 0
		}
		s.graph, s.nf, s.single = nil, nil, nil
		return errors.Join(errs...)
	})
}

// Solve runs a search from every source (repeats are searched again) and
// hands the rows to sink in blocks, in the order of sources, as
// Backend.Run does: while the consumer encodes a block and the copy engine
// moves the next, the device computes the one after. Near-far solves a
// block's sources in one launch, the other variants one after the other.
// With weights <= 0, parent rows that loop are mended on the host before
// their block is handed over. Negative cycles give a *NegativeCycleError;
// a near-far launch that outlives Options.Timeout gives an error.
func (s *Solver) Solve(ctx context.Context, sources []int32, withParents bool, sink results.Sink) (Stats, error) {
	stats := Stats{Variant: s.plan.variant, ThreadsPerBlock: s.plan.opts.ThreadsPerBlock}
	if err := spread.CheckSources(int32(s.plan.n), sources); err != nil {
		return stats, err
	}
	if len(sources) == 0 {
		return stats, nil
	}
	shape := s.b.fed(s.blockShape(len(sources), withParents, &stats))
	if err := s.prepareBlocks(shape, withParents); err != nil {
		return stats, err
	}
	// produced is written by compute, on the calling goroutine only.
	var produced Stats
	var err error
	stats.Stream, err = s.b.st.Stream(ctx, s.plan.n, sources, withParents, shape, s.stageFuncs(ctx, withParents, &produced), sink)
	stats.add(produced)
	return stats, err
}

// blockShape cuts total sources into blocks. Rows per block: what the
// staging bytes hold, and for near-far what one launch solves (it sets
// the solver's batch and blocks per source, and records them in stats).
// The variants that search one source at a time cut a run into at least
// two blocks per pinned block, so that the host encodes some while the
// device searches on.
func (s *Solver) blockShape(total int, withParents bool, stats *Stats) device.StagingShape {
	n, o, so := s.plan.n, s.b.st.Options(), s.plan.opts
	if s.plan.variant != VariantNearFar {
		few := (total + 2*o.Blocks - 1) / (2 * o.Blocks)
		return device.ShapeStaging(n, total, o.Bytes, o.Blocks, few)
	}
	slotInts := int64(2)
	if withParents {
		slotInts = 4
	}
	fit := device.ShapeStaging(n, total, o.Bytes, o.Blocks, 0).BlockRows()
	s.blocks, s.batch = nearFarShape(n, fit, so.ThreadsPerBlock, s.resident, nearFarBlocksPerSM*s.dev.Multiprocessors(),
		so.BlocksPerSource, so.Batch, so.MaxBatchBytes, slotInts)
	stats.BlocksPerSource, stats.BatchSize = s.blocks, s.batch
	stats.Delta, stats.LocalRounds = s.plan.delta, s.plan.localRounds
	return device.ShapeStaging(n, total, o.Bytes, o.Blocks, s.batch)
}

// prepareBlocks makes the device buffers fit blocks of shape: the
// near-far buffers for its batch, the result slots, and with parents the
// reverse arcs.
func (s *Solver) prepareBlocks(shape device.StagingShape, withParents bool) error {
	return s.dev.Do(func(c *device.Ctx) error {
		if s.plan.variant == VariantNearFar {
			if err := s.ensureNearFar(c); err != nil {
				return err
			}
		}
		if err := s.ensureSlots(c, int64(shape.BlockRows()), withParents); err != nil {
			return err
		}
		if withParents {
			// Upload the reverse arcs now, so no copy lands in the timed kernels.
			_, err := s.graph.Reverse(c)
			return err
		}
		return nil
	})
}

// stageFuncs are Solve's part of the staging: block k's searches into
// result slot k%2, counted in produced, and its rows copied from that
// slot; with parents and weights <= 0, the repair of parent rows that
// loop.
func (s *Solver) stageFuncs(ctx context.Context, withParents bool, produced *Stats) device.StageFuncs {
	n := s.plan.n
	f := device.StageFuncs{
		Compute: func(c *device.Ctx, k, _ int, rows []int32) error {
			return s.computeBlock(ctx, c, &s.slots[k%2], rows, withParents, produced)
		},
		Copy: func(c *device.Ctx, k int, blk *device.StagedBlock, cs *device.CopyStream) error {
			slot := &s.slots[k%2]
			cells := int64(blk.Rows().Len()) * n
			if err := cs.AfterKernels(); err != nil {
				return err
			}
			if err := blk.Dist().CopyFromDevice(0, slot.dist.Ptr, 4*cells, cs.CUDA()); err != nil {
				return err
			}
			if withParents {
				return blk.Parent().CopyFromDevice(0, slot.parent.Ptr, 4*cells, cs.CUDA())
			}
			return nil
		},
	}
	if withParents && s.plan.lo <= 0 {
		scratch := make([]*paths.TreeRepair, s.b.workers)
		for i := range scratch {
			scratch[i] = paths.NewTreeRepair(int(n))
		}
		f.Prepare = func(b *results.Rows) { repairParents(s.host, b, scratch) }
	}
	return f
}

// ensureSlots makes both result slots hold rows rows, with parents when
// withParents.
func (s *Solver) ensureSlots(c *device.Ctx, rows int64, withParents bool) error {
	n := s.plan.n
	for i := range s.slots {
		slot := &s.slots[i]
		if slot.rows >= rows && (!withParents || slot.parent.Ptr != 0) {
			continue
		}
		if err := errors.Join(c.Free(&slot.dist), c.Free(&slot.parent)); err != nil {
			return err
		}
		slot.rows = 0
		need := rows * n * 4
		if withParents {
			need *= 2
		}
		if err := c.Reserve(need, "result rows"); err != nil {
			return err
		}
		var err error
		if slot.dist, err = c.Alloc(rows*n*4, fmt.Sprintf("result distances %d x %d", rows, n)); err != nil {
			return err
		}
		if withParents {
			if slot.parent, err = c.Alloc(rows*n*4, fmt.Sprintf("result parents %d x %d", rows, n)); err != nil {
				return err
			}
		}
		slot.rows = rows
	}
	return nil
}

// computeBlock runs the searches of sources (at most a block's rows) and
// leaves their rows in slot.
func (s *Solver) computeBlock(ctx context.Context, c *device.Ctx, slot *resultSlot, sources []int32, withParents bool, st *Stats) error {
	st.Sources += len(sources)
	if s.plan.variant == VariantNearFar {
		st.Batches++
		return s.nearFarBatch(c, sources, withParents, slot, st)
	}
	for i, source := range sources {
		if err := ctx.Err(); err != nil {
			return err
		}
		st.Batches++
		if err := s.singleSearch(ctx, c, source, withParents, slot, int64(i), st); err != nil {
			return err
		}
	}
	return nil
}

// timed runs launch between a pair of CUDA events and adds the device time
// to st.
func timed(c *device.Ctx, st *Stats, launch func() error) (err error) {
	timer, err := c.NewTimer()
	if err != nil {
		return err
	}
	defer device.ReleaseInto(&err, timer.Close)
	if err := timer.Start(); err != nil {
		return err
	}
	if err := launch(); err != nil {
		return err
	}
	if err := timer.Stop(); err != nil {
		return err
	}
	elapsed, err := timer.Elapsed()
	if err != nil {
		return err
	}
	st.Kernel += elapsed
	return nil
}
