//go:build cuda

package gpu

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
)

// SSSPStats counts what one Solve did, summed over its sources.
type SSSPStats struct {
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
	// Kernel is the device time of the searches, parent passes included,
	// from CUDA events; copies to the host are not in it.
	Kernel time.Duration
	// Delta, LocalRounds, BlocksPerSource and BatchSize are the near-far
	// parameters used; BlockSize the threads per block.
	Delta                                              int64
	LocalRounds, BlocksPerSource, BatchSize, BlockSize int
}

func (s *SSSPStats) add(o SSSPStats) {
	s.Sources += o.Sources
	s.Batches += o.Batches
	s.Steps += o.Steps
	s.Splits += o.Splits
	s.Launches += o.Launches
	s.HostSyncs += o.HostSyncs
	s.Relaxations += o.Relaxations
	s.Improvements += o.Improvements
	s.Kernel += o.Kernel
}

// SSSPSolver is a graph on the device with the buffers of one
// single-source variant, reused by every Solve until Close: the graph is
// uploaded once however many sources are solved. A solver serves one Solve
// at a time; use one per goroutine.
type SSSPSolver struct {
	dev   *Device
	plan  ssspPlan
	host  *graph.CSR
	graph *DeviceGraph

	// batch is how many sources one device round trip solves; blocks the
	// near-far blocks per source; resident how many near-far blocks fit
	// on the device at once. Solve sets batch and blocks.
	batch, blocks, resident int

	nf     *nearFarBuffers
	single *singleBuffers

	// staging holds pinned host buffers for batches, allocated by the first
	// Solve of more than one batch.
	staging []*hostBatch
}

// hostBatch is one batch's results on the host: row i of dist (and
// parent, when wanted) holds the n entries of sources[i].
type hostBatch struct {
	sources     []int32
	dist        []int32
	parent      []int32
	pinned      []*pinnedInt32
	withParents bool
}

// PrepareSSSP validates the request, uploads g and allocates the variant's
// buffers. Errors: ErrNeedsInt64 (wrapped) when distances might not fit
// int32, ErrNotSupported (wrapped) for unknown names or variants and for
// near-far or Dijkstra on negative weights, *OutOfMemoryError. O(n + m)
// host work.
func (b *Backend) PrepareSSSP(g *graph.CSR, alg backend.Algorithm, opts SSSPOptions) (*SSSPSolver, error) {
	plan, err := planSSSP(g, alg, opts)
	if err != nil {
		return nil, err
	}
	s := &SSSPSolver{dev: b.dev, plan: plan, host: g, batch: 1, blocks: 1}
	err = b.dev.Do(func(c *Ctx) error {
		var err error
		if s.graph, err = c.uploadGraph(g); err != nil {
			return err
		}
		if plan.variant == VariantNearFar {
			return s.prepareNearFar(c)
		}
		return s.allocSingle(c)
	})
	if err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// Variant is the variant the solver runs.
func (s *SSSPSolver) Variant() string { return s.plan.variant }

// Close frees the device and pinned host memory.
func (s *SSSPSolver) Close() error {
	return s.dev.Do(func(c *Ctx) error {
		var errs []error
		if s.graph != nil {
			errs = append(errs, s.graph.Free(c))
		}
		if s.nf != nil {
			errs = append(errs, s.nf.free(c))
		}
		if s.single != nil {
			errs = append(errs, s.single.free(c))
		}
		for _, h := range s.staging {
			for _, p := range h.pinned {
				errs = append(errs, p.free())
			}
		}
		s.graph, s.nf, s.single, s.staging = nil, nil, nil, nil
		return errors.Join(errs...)
	})
}

// Solve runs a search from every source and hands each tree to emit in
// the order of sources, on the caller's goroutine. While the caller
// converts and emits one batch, the device computes the next. Negative
// cycles give a *NegativeCycleError; a near-far launch that outlives
// SSSPOptions.Timeout gives an error.
func (s *SSSPSolver) Solve(ctx context.Context, sources []int32, withParents bool, emit func(*paths.Tree) error) (SSSPStats, error) {
	stats := SSSPStats{Variant: s.plan.variant, BlockSize: s.plan.opts.BlockSize}
	if err := checkSources(int32(s.plan.n), sources); err != nil {
		return stats, err
	}
	if len(sources) == 0 {
		return stats, nil
	}
	if s.plan.variant == VariantNearFar {
		o := s.plan.opts
		s.blocks, s.batch = nearFarShape(s.plan.n, len(sources), o.BlockSize, s.resident, nearFarBlocksPerSM*s.dev.sms,
			o.BlocksPerSource, o.Batch, o.MaxBatchBytes)
		if err := s.dev.Do(s.ensureNearFar); err != nil {
			return stats, err
		}
		stats.BlocksPerSource, stats.BatchSize = s.blocks, s.batch
		stats.Delta, stats.LocalRounds = s.plan.delta, s.plan.localRounds
	}
	batches := (len(sources) + s.batch - 1) / s.batch
	pool := make(chan *hostBatch, 2)
	if batches > 1 {
		if err := s.ensureStaging(); err != nil {
			return stats, err
		}
		for _, h := range s.staging {
			pool <- h
		}
	} else {
		pool <- &hostBatch{}
	}

	type result struct {
		batch *hostBatch
		err   error
	}
	results := make(chan result)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var produced SSSPStats
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(results)
		for lo := 0; lo < len(sources); lo += s.batch {
			var h *hostBatch
			select {
			case <-stop:
				return
			case h = <-pool:
			}
			select {
			case <-stop:
				return
			default:
			}
			err := ctx.Err()
			if err == nil {
				chunk := sources[lo:min(lo+s.batch, len(sources))]
				err = s.dev.Do(func(c *Ctx) error { return s.computeBatch(ctx, c, chunk, withParents, h, &produced) })
			}
			select {
			case results <- result{h, err}:
			case <-stop:
				return
			}
			if err != nil {
				return
			}
		}
	}()
	defer func() {
		close(stop)
		wg.Wait()
	}()

	for r := range results {
		if r.err != nil {
			return stats, r.err
		}
		trees := s.trees(r.batch)
		pool <- r.batch
		for _, t := range trees {
			if err := emit(t); err != nil {
				return stats, err
			}
		}
	}
	wg.Wait() // results closed: the producer is done writing produced
	stats.add(produced)
	return stats, nil
}

// trees converts a batch to trees, mending parents that loop (possible only
// with weights <= 0, see parentsLoop).
func (s *SSSPSolver) trees(h *hostBatch) []*paths.Tree {
	n := int(s.plan.n)
	var parent []int32
	if h.withParents {
		parent = h.parent
	}
	trees := treesFromRows(n, h.sources, h.dist[:len(h.sources)*n], parent)
	if h.withParents && s.plan.lo <= 0 {
		for i, t := range trees {
			if parentsLoop(t.Source, h.dist[i*n:(i+1)*n], t.Parent) {
				tightTreeParents(s.host, t.Source, h.dist[i*n:(i+1)*n], t.Parent)
			}
		}
	}
	return trees
}

// ensureStaging allocates two pinned staging batches of s.batch rows.
func (s *SSSPSolver) ensureStaging() error {
	cells := s.batch * int(s.plan.n)
	if s.staging != nil && len(s.staging[0].dist) >= cells {
		return nil
	}
	return s.dev.Do(func(c *Ctx) error {
		for _, h := range s.staging {
			for _, p := range h.pinned {
				if err := p.free(); err != nil {
					return err
				}
			}
		}
		s.staging = nil
		var staging []*hostBatch
		for range 2 {
			h := &hostBatch{}
			for _, to := range []*[]int32{&h.dist, &h.parent} {
				p, err := allocPinnedInt32(cells)
				if err != nil {
					for _, done := range append(staging, h) {
						for _, q := range done.pinned {
							q.free()
						}
					}
					return err
				}
				h.pinned = append(h.pinned, p)
				*to = p.s
			}
			staging = append(staging, h)
		}
		s.staging = staging
		return nil
	})
}

// computeBatch runs the searches of sources (at most s.batch) and copies
// their rows into h.
func (s *SSSPSolver) computeBatch(ctx context.Context, c *Ctx, sources []int32, withParents bool, h *hostBatch, st *SSSPStats) error {
	cells := len(sources) * int(s.plan.n)
	h.sources = append(h.sources[:0], sources...)
	h.withParents = withParents
	if h.pinned == nil {
		// Unpinned: a single batch, whose rows become the trees' storage
		// only after conversion, so plain Go memory does.
		if cap(h.dist) < cells {
			h.dist = make([]int32, cells)
		}
		h.dist = h.dist[:cells]
		if withParents {
			if cap(h.parent) < cells {
				h.parent = make([]int32, cells)
			}
			h.parent = h.parent[:cells]
		}
	}
	st.Sources += len(sources)
	st.Batches++
	if withParents {
		// Upload the reverse arcs now, so no copy lands in the timed kernels.
		if _, err := s.graph.Reverse(c); err != nil {
			return err
		}
	}
	if s.plan.variant == VariantNearFar {
		return s.nearFarBatch(c, sources, withParents, h, st)
	}
	return s.singleBatch(ctx, c, sources[0], withParents, h, st)
}

// timed runs launch between a pair of CUDA events and adds the device time
// to st.
func timed(c *Ctx, st *SSSPStats, launch func() error) error {
	timer, err := c.NewTimer()
	if err != nil {
		return err
	}
	defer timer.Close()
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

// singleSource backs Backend.SingleSource.
func (b *Backend) singleSource(ctx context.Context, g *graph.CSR, source int32, alg backend.Algorithm, withParents bool) (*paths.Tree, error) {
	var tree *paths.Tree
	err := b.multiSource(ctx, g, []int32{source}, alg, withParents, func(t *paths.Tree) error {
		tree = t
		return nil
	})
	return tree, err
}

// multiSource backs Backend.MultiSource: one solver, so the graph is
// uploaded once for all sources.
func (b *Backend) multiSource(ctx context.Context, g *graph.CSR, sources []int32, alg backend.Algorithm, withParents bool, emit func(*paths.Tree) error) error {
	if g != nil {
		if err := checkSources(g.N, sources); err != nil {
			return err
		}
	}
	s, err := b.PrepareSSSP(g, alg, SSSPOptions{})
	if err != nil {
		return err
	}
	_, err = s.Solve(ctx, sources, withParents, emit)
	if cerr := s.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("gpu: releasing the single-source buffers: %w", cerr)
	}
	return err
}
