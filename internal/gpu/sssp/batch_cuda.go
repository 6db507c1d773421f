//go:build cuda

package sssp

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorgonia.org/cu"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/gpu/device"
	"github.com/pathflow/pathflow/internal/gpu/devicegraph"
	"github.com/pathflow/pathflow/internal/gpu/spread"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/hierarchy"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/kernels"
)

// batchGatherWarps is BT_GATHER_WARPS of kernels/sssp_batch_gather.cu.
const batchGatherWarps = 4

// sparseStagingBytes is the pinned block of a run whose rows leave the
// device as their cells within a cutoff (distances and vertices; as much
// again of parents). Pinning cost 0.48-0.81 s per GiB (H100 host,
// 2026-11-25): 6 GiB of whole-row blocks took 4.9 s for a 100-source
// cutoff search of 0.2 s.
const sparseStagingBytes = 16 << 20

// batchSolver is one batched run on one device: the graph, the search
// state of a launch's groups, the asked columns and two result slots.
type batchSolver struct {
	b     *unit
	plan  ssspPlan
	host  *graph.CSR
	req   *backend.Request
	graph *DeviceGraph
	// search is sssp_batch, loaded for cooperative launches.
	search *device.CooperativeKernel
	shape  batchShape
	// width is the values per row on the device: the targets, the widest
	// row of a ragged request, or n when rows are narrowed on the host.
	width int64
	// onDevice: the asked columns are gathered on the device and the
	// search stops once they are settled. Off only for parents over
	// weights <= 0, whose loops are mended on whole rows on the host.
	onDevice bool
	cutoff   int64
	// sparse: rows may leave the device as their cells within the cutoff
	// (backend.Request.SparseRows), through cellCounts (per group, chunk
	// and lane) and cellStarts (their write positions).
	sparse                 bool
	cellCounts, cellStarts device.Buffer
	// summarize: rows leave the device as their summaries
	// (summarizesOnDevice), summaryWords int32 a row, reduced from the
	// groups' distances (or a sweep's lanes) instead of gathered.
	summarize bool
	// sweep, when not nil, computes the groups' distances by PHAST sweeps
	// over a contraction hierarchy instead of near-far searches.
	sweep *chSweep
	// space is the number of vertices a group keeps distances for: n, or
	// a compact sweep's swept vertices, whose positions then stand for
	// vertex ids in the columns and sources handed to the device.
	space int64
	// metric: the run reports a metric beside the distance
	// (ch_metric_cuda.go, batch_metric_cuda.go). metricState holds the
	// groups' metrics in dist's layout, slotMetric each slot's gathered
	// metrics, and metricOf hands each block's metric cells to its
	// Prepare.
	metric      bool
	metricState device.Buffer
	slotMetric  [2]device.Buffer
	metricOf    metricBlocks
	// nearFar, for a near-far run that reports a metric, is what its
	// searches add; nil otherwise.
	nearFar *nearFarMetric
	// keyed finds a metric run's parents on the host when they are not
	// found on the device (onDevice false).
	keyed *keyedParents
	// uploaded: the part of prepare spent sending the graph (or the
	// hierarchy) with its reverse arcs.
	uploaded time.Duration

	dist, pending, queued, nearQueue, state, sources device.Buffer
	// columns holds the shared targets, or the ragged lists of the launch
	// with their row starts.
	columns, rowStarts device.Buffer
	slots              [2]resultSlot
}

// SolveBatch runs the near-far searches of req's sources in batches of up
// to 32 per group that share one frontier (kernels/sssp_batch.cu), as many
// groups per launch as the device's free memory and the staging take, and
// hands the rows to sink as Serve does: narrowed to req.Targets, ragged for
// req.SourceTargets, or whole. A search stops at req.MaxDistance and, with
// targets, once every target of its group is settled; only the asked
// columns leave the device. Non-negative weights only
// (device.ErrNotSupported otherwise). O(groups * n) device memory per
// launch. It runs on gpu's device; workers host goroutines mend parent
// rows. With a ch Choice the groups' distances come from PHAST sweeps over
// req.Hierarchy instead (chSweep), in the same launches and layout. Either
// may report a metric (results.Metric): the distance and metric of the
// path shortest by (distance, metric), parents along it.
func SolveBatch(ctx context.Context, gpu *device.Stager, workers int, g *graph.CSR, req *backend.Request, opts Options, sink results.Sink) (Stats, error) {
	plan, err := planSSSP(g, backend.Algorithm{Name: SSSPFamily, Variant: VariantNearFar}, opts)
	if err != nil {
		return Stats{}, err
	}
	if err := spread.CheckSources(g.N, req.Sources); err != nil {
		return Stats{}, err
	}
	var h *hierarchy.Hierarchy
	if req.Choice.Algorithm.Name == AlgorithmCH {
		if h = req.Hierarchy; h == nil || h.N != g.N {
			return Stats{}, fmt.Errorf("gpu: ch: SolveBatch needs the request's hierarchy of the graph")
		}
	}
	return newUnit(gpu, workers).solveBatch(ctx, g, req, plan, h, sink)
}

// solveBatch is SolveBatch for a graph already planned (a near-far plan
// of g) and checked sources: Serve plans once, for the variant and this.
// With a hierarchy h of g, the groups' distances come from PHAST sweeps
// over it instead (chSweep).
func (b *unit) solveBatch(ctx context.Context, g *graph.CSR, req *backend.Request, plan ssspPlan, h *hierarchy.Hierarchy, sink results.Sink) (Stats, error) {
	start := time.Now()
	stats := Stats{Variant: VariantNearFar + " (batched)"}
	if h != nil {
		stats.Variant = AlgorithmCH + " (PHAST sweeps)"
	}
	if len(req.Sources) == 0 {
		return stats, nil
	}
	var err error
	s := &batchSolver{b: b, plan: plan, host: g, req: req, cutoff: batchCutoff(req.MaxDistance, int64(graph.Inf32))}
	s.onDevice = !(req.Wants(results.Parent) && plan.lo <= 0)
	if req.Wants(results.Metric) {
		if err := checkMetricRequest(g); err != nil {
			return stats, err
		}
		// Keyed parents have loops to mend only over arcs of weight and
		// metric 0: then whole rows go to the host (keyedParents).
		s.onDevice = !(req.Wants(results.Parent) && hasZeroKeyArc(g))
		if !s.onDevice {
			if s.keyed, err = newKeyedParents(g, b.workers); err != nil {
				return stats, err
			}
		}
	}
	s.summarize = summarizesOnDevice(req, s.onDevice)
	// Summaries hold no metric, and the distances are the same without.
	s.metric = req.Wants(results.Metric) && !s.summarize
	if s.metric && h == nil {
		s.nearFar = &nearFarMetric{}
	}
	if h != nil {
		planned, err := b.share.sweep.get(func() (*chSweep, error) {
			return newCHSweep(h, g, req, s.onDevice, s.metric, b.workers)
		})
		if err != nil {
			return stats, err
		}
		s.sweep = planned.hostCopy()
		stats.Swept = s.sweep.swept()
	}
	s.space = plan.n
	if s.sweep != nil {
		s.space = s.sweep.space()
	}
	s.sparse = req.SparseRows() && s.onDevice && s.space == plan.n && !s.summarize && !s.metric
	s.width = plan.n
	switch {
	case s.summarize:
		s.width = summaryWords
	case s.onDevice:
		s.width = int64(rowWidest(req, int(plan.n)))
	default:
		sink = req.NarrowSink(sink)
	}
	began := time.Now()
	stats.Setup = began.Sub(start)
	err = b.dev.Do(s.prepare)
	stats.Prepare, stats.Upload = time.Since(began), s.uploaded
	if err == nil {
		stats.BatchSize, stats.BlocksPerSource = s.shape.rows, s.shape.blocksPerGroup
		stats.Delta, stats.ThreadsPerBlock, stats.LocalRounds = plan.delta, plan.opts.ThreadsPerBlock, plan.localRounds
		width, shape := s.staging()
		var produced Stats
		stats.Stream, err = b.st.Stream(ctx, width, req.Sources, req.Wants(results.Parent), shape, s.stageFuncs(&produced), sink)
		stats.add(produced)
		if err == nil && s.keyed != nil {
			err = s.keyed.failure()
		}
	}
	began = time.Now()
	if cerr := b.dev.Do(s.close); cerr != nil {
		err = errors.Join(err, fmt.Errorf("gpu: releasing the batched search: %w", cerr))
	}
	stats.Release = time.Since(began)
	return stats, err
}

// staging is the width per row and the shape of the run's pinned blocks:
// one launch's rows a block. Rows within a cutoff are a few cells, so a
// sparse run's blocks are small (sparseStagingBytes), and a launch whose
// cells do not fit goes through pageable memory (copyPageable).
func (s *batchSolver) staging() (int64, device.StagingShape) {
	total := len(s.req.Sources)
	if s.sparse {
		width := max(1, sparseStagingBytes/(4*int64(s.shape.rows)))
		return width, s.b.fed(device.ShapeStaging(width, total, sparseStagingBytes, batchWidePool, s.shape.rows))
	}
	width := s.width
	if s.metric {
		// Each block holds its metric cells after its distances.
		width *= 2
	}
	bytes, pool := batchStaging(width, s.b.st.Options())
	return width, s.b.fed(device.ShapeStaging(width, total, bytes, pool, s.shape.rows))
}

// rowWidest is the widest row req asks for: its targets, the longest list
// of a ragged request, or n.
func rowWidest(req *backend.Request, n int) int {
	if req.SourceTargets == nil {
		return req.RowWidth(0, n)
	}
	widest := 0
	for i := range req.SourceTargets {
		widest = max(widest, len(req.SourceTargets[i]))
	}
	return widest
}

// prepare uploads the graph (and the reverse arcs for parents), loads the
// kernel, sizes the launches from the free memory and allocates.
func (s *batchSolver) prepare(c *device.Ctx) error {
	var err error
	began := time.Now()
	if s.sweep != nil {
		if err := s.sweep.prepare(c); err != nil {
			return err
		}
	}
	if s.sweep == nil || !s.sweep.compact {
		if s.graph, err = uploadGraph(c, s.host); err != nil {
			return err
		}
		// A metric run's parents read reverse arcs that carry the metric
		// (the sweep's, or nearFarMetric's).
		if s.req.Wants(results.Parent) && !s.metric {
			if _, err := s.graph.Reverse(c); err != nil {
				return err
			}
		}
	}
	s.uploaded = time.Since(began)
	search := &s.search
	if s.nearFar != nil {
		if err := s.nearFar.prepare(c, s); err != nil {
			return err
		}
		search = &s.nearFar.search
	} else if s.search, err = loadKernel("sssp_batch"); err != nil {
		return err
	}
	bs := s.plan.opts.ThreadsPerBlock
	perSM, err := (*search).MaxActiveBlocksPerSM(bs)
	if err != nil {
		return err
	}
	if perSM < 1 {
		return fmt.Errorf("gpu: sssp_batch cannot run blocks of %d threads", bs)
	}
	free, _, err := c.MemInfo()
	if err != nil {
		return err
	}
	n := s.space
	// Leave room for the column lists and a margin for the driver.
	budget := min(free-free/16-12*int64(len(s.req.Sources))*s.width, s.plan.opts.BatchStateBytes+2*batchLanes*8*s.width)
	staging, _ := batchStaging(s.width, s.b.st.Options())
	switch {
	case s.nearFar != nil:
		// A metric search keeps a key (8 bytes) and a metric lane (4)
		// beside each distance, and the rows' cells double: plan as for a
		// quarter of the memory.
		budget /= 4
	case s.metric:
		// The metric doubles each group's distances and each row's
		// cells: plan as for half the memory.
		budget /= 2
	}
	if s.sparse {
		// Sparse rows do not pass through whole-row staging: a launch may
		// take a full group, whose whole rows, should it fall back to
		// them, go through pageable memory (32 rows of n values and
		// parents: 6 GiB at 24M vertices, the bound of a sparse run's
		// host memory).
		staging = max(staging, batchLanes*4*s.width)
	}
	s.shape = planBatch(n, s.width, len(s.req.Sources), s.req.Wants(results.Parent), budget, staging,
		perSM*s.b.dev.Multiprocessors(), s.plan.opts.Batch, s.b.devices())
	groups, rows := int64(s.shape.groups), int64(s.shape.rows)
	cellBytes := int64(0)
	if s.sparse {
		cellBytes = groups * s.cellChunks() * batchLanes * (4 + 8)
	}
	metricBytes := int64(0)
	if s.metric {
		metricBytes = groups*n*batchLanes*4 + 2*rows*s.width*4
		if s.nearFar != nil {
			metricBytes += groups * n * batchLanes * 8
		}
	}
	if err := c.Reserve(groups*batchGroupBytes(n)+2*rows*s.width*8+cellBytes+metricBytes, "batched search state and result rows"); err != nil {
		return err
	}
	// PHAST sweeps fill the distances alone: no near-far state; and
	// summaries are reduced from the sweeps' lanes: no distances either.
	searching, kept := int64(1), groups
	if s.sweep != nil {
		searching = 0
		if s.summarize {
			kept = 0
		}
	}
	if err := allocBuffers(c, "batched search ", []bufferAlloc{
		{&s.dist, kept * n * batchLanes * 4, "distances"},
		{&s.pending, searching * groups * n * 4, "pending lanes"},
		{&s.queued, searching * groups * n * 4, "queue stamps"},
		{&s.nearQueue, searching * groups * 2 * n * 4, "near queues"},
		{&s.state, searching * groups * batchStateInts * 4, "search state"},
		{&s.sources, rows * 4, "sources"},
		{&s.rowStarts, (rows + 1) * 8, "row starts"},
		{&s.cellCounts, cellBytes / 12 * 4, "cell counts"},
		{&s.cellStarts, cellBytes / 12 * 8, "cell positions"},
	}); err != nil {
		return err
	}
	switch {
	case !s.onDevice:
	case s.req.SourceTargets != nil:
		if s.columns, err = c.Alloc(rows*s.width*4, "batched search columns"); err != nil {
			return err
		}
	case s.req.Targets != nil:
		if s.columns, err = c.Alloc(int64(len(s.req.Targets))*4, "batched search targets"); err != nil {
			return err
		}
		if err := c.CopyInt32ToDevice(s.columns, s.positions(s.req.Targets)); err != nil {
			return err
		}
	}
	for i := range s.slots {
		slot := &s.slots[i]
		if slot.dist, err = c.Alloc(rows*s.width*4, "batched result distances"); err != nil {
			return err
		}
		if s.req.Wants(results.Parent) {
			if slot.parent, err = c.Alloc(rows*s.width*4, "batched result parents"); err != nil {
				return err
			}
		}
		slot.rows = rows
		if s.metric {
			if s.slotMetric[i], err = c.Alloc(rows*s.width*4, "batched result metrics"); err != nil {
				return err
			}
		}
	}
	if s.metric {
		if s.metricState, err = c.Alloc(kept*n*batchLanes*4, "batched search metrics"); err != nil {
			return err
		}
	}
	if s.nearFar != nil {
		if s.nearFar.keys, err = c.Alloc(groups*n*batchLanes*8, "batched search keys"); err != nil {
			return err
		}
	}
	if s.sweep != nil {
		return s.sweep.grow(c, int(groups))
	}
	return nil
}

// loadKernel loads the named kernel for cooperative launches.
func loadKernel(name string) (*device.CooperativeKernel, error) {
	for _, k := range kernels.All() {
		if k.Name() == name {
			return device.LoadCooperative(k)
		}
	}
	return nil, fmt.Errorf("gpu: kernel %s is missing (run go generate ./kernels)", name)
}

// close frees everything prepare made.
func (s *batchSolver) close(c *device.Ctx) error {
	var errs []error
	for _, buf := range []*device.Buffer{&s.dist, &s.pending, &s.queued, &s.nearQueue, &s.state, &s.sources, &s.columns, &s.rowStarts, &s.cellCounts, &s.cellStarts} {
		errs = append(errs, c.Free(buf))
	}
	for i := range s.slots {
		errs = append(errs, c.Free(&s.slots[i].dist), c.Free(&s.slots[i].parent), c.Free(&s.slotMetric[i]))
	}
	errs = append(errs, c.Free(&s.metricState))
	if s.graph != nil {
		errs = append(errs, s.graph.Free(c))
	}
	if s.search != nil {
		errs = append(errs, s.search.Unload())
	}
	if s.sweep != nil {
		errs = append(errs, s.sweep.close(c))
	}
	if s.nearFar != nil {
		errs = append(errs, s.nearFar.close(c))
	}
	return errors.Join(errs...)
}

// stageFuncs are the batched run's part of the staging: block k's launch
// into slot k%2, its rows copied from there (ragged blocks get their
// offsets), and with parents over weights <= 0 the repair of whole rows.
func (s *batchSolver) stageFuncs(produced *Stats) device.StageFuncs {
	f := device.StageFuncs{
		Compute: func(c *device.Ctx, k, first int, rows []int32) error {
			return s.launch(c, &s.slots[k%2], first, rows, produced)
		},
		Copy: func(c *device.Ctx, k int, blk *device.StagedBlock, cs *device.CopyStream) error {
			slot := &s.slots[k%2]
			r := blk.Rows()
			pinned := int64(len(r.Dist32)) // the block's room, in values
			cells := int64(r.Len()) * s.width
			copied := cells
			switch {
			case slot.cells != nil:
				// Distances, then their vertices, in the first 2*cells
				// values of the slot and of the block.
				cells = int64(slot.cells[r.Len()])
				copied = 2 * cells
				r.Offsets, r.Width = slot.cells, 0
				if copied > pinned {
					return s.copyPageable(c, r, slot, cells, true)
				}
				r.Dist32, r.Vertices = r.Dist32[:cells], r.Dist32[cells:2*cells]
				if r.Parent != nil {
					r.Parent = r.Parent[:cells]
				}
			case copied > pinned:
				// Whole rows of a sparse run, whose staging is sized for
				// cells.
				r.Width = int(s.width)
				return s.copyPageable(c, r, slot, cells, false)
			case s.onDevice && s.req.SourceTargets != nil:
				r.Offsets = s.rowOffsets(r.First, r.Len())
				r.Width = 0
				cells = int64(r.Offsets[r.Len()])
				copied = cells
				r.Dist32 = r.Dist32[:cells]
				if r.Parent != nil {
					r.Parent = r.Parent[:cells]
				}
			default:
				// Whole or narrowed rows; a sparse run's staging is wider
				// per row than they are when the graph is small.
				r.Width = int(s.width)
				r.Dist32 = r.Dist32[:cells]
				if r.Parent != nil {
					r.Parent = r.Parent[:cells]
				}
			}
			if err := cs.AfterKernels(); err != nil {
				return err
			}
			if err := blk.Dist().CopyFromDevice(0, slot.dist.Ptr, 4*copied, cs.CUDA()); err != nil {
				return err
			}
			if s.metric {
				// After the distances, in the room staging made for it.
				metric := s.slotMetric[k%2]
				if err := blk.Dist().CopyFromDevice(4*copied, metric.Ptr, 4*copied, cs.CUDA()); err != nil {
					return err
				}
				s.metricOf.put(r, blk.Dist().Int32s(2 * copied)[copied:])
			}
			if s.req.Wants(results.Parent) {
				return blk.Parent().CopyFromDevice(0, slot.parent.Ptr, 4*cells, cs.CUDA())
			}
			return nil
		},
	}
	if s.sweep != nil && s.sweep.compact && s.req.Wants(results.Parent) {
		f.Prepare = func(b *results.Rows) { s.sweep.idsOf(b.Parent) }
	}
	if s.metric {
		ids := f.Prepare
		f.Prepare = func(b *results.Rows) {
			s.metricOf.fill(b)
			if ids != nil {
				ids(b)
			}
		}
	}
	if s.summarize {
		f.Prepare = decodeSummaries
	}
	if !s.onDevice && s.keyed != nil {
		f.Prepare = func(b *results.Rows) {
			s.metricOf.fill(b)
			s.keyed.fill(b)
		}
	}
	if !s.onDevice && s.keyed == nil {
		scratch := make([]*paths.TreeRepair, s.b.workers)
		for i := range scratch {
			scratch[i] = paths.NewTreeRepair(int(s.plan.n))
		}
		f.Prepare = func(b *results.Rows) { repairParents(s.host, b, scratch) }
	}
	return f
}

// copyPageable copies slot's cells values (with their vertices after them
// when sparse) and parents into new host memory, after the launch's
// kernels: a block larger than the pinned staging of a sparse run, whose
// blocks are sized for the cells of rows within a cutoff. Synchronous.
func (s *batchSolver) copyPageable(c *device.Ctx, r *results.Rows, slot *resultSlot, cells int64, sparse bool) error {
	if err := c.Sync(); err != nil {
		return err
	}
	values := cells
	if sparse {
		values = 2 * cells
	}
	dist := make([]int32, values)
	if err := c.CopyInt32FromDevice(dist, slot.dist); err != nil {
		return err
	}
	r.Dist32 = dist[:cells]
	if sparse {
		r.Vertices = dist[cells:]
	}
	if r.Parent != nil {
		r.Parent = make([]int32, cells)
		return c.CopyInt32FromDevice(r.Parent, slot.parent)
	}
	return nil
}

// positions returns vertices as the device sees them: themselves, or
// their positions in a compact sweep (-1 for one not swept, which no
// column is and a source may be).
func (s *batchSolver) positions(vertices []int32) []int32 {
	if s.sweep == nil || !s.sweep.compact {
		return vertices
	}
	out := make([]int32, len(vertices))
	for i, v := range vertices {
		out[i] = s.sweep.Position(v)
	}
	return out
}

// rowOffsets are the ragged offsets of count rows from request row first.
func (s *batchSolver) rowOffsets(first, count int) []int {
	offsets := make([]int, count+1)
	for i := range count {
		offsets[i+1] = offsets[i] + len(s.req.SourceTargets[first+i])
	}
	return offsets
}

// launch runs the searches of rows (request rows first..) and gathers
// their columns into slot, then reads the groups' state: a launch past its
// time limit or a path that reached graph.Inf32 is an error.
func (s *batchSolver) launch(c *device.Ctx, slot *resultSlot, first int, rows []int32, st *Stats) error {
	k := int64(len(rows))
	n := s.plan.n
	groups := (k + batchLanes - 1) / batchLanes
	if err := c.CopyInt32ToDevice(s.sources, s.positions(rows)); err != nil {
		return err
	}
	ncolumns := int64(0)
	if s.onDevice {
		switch {
		case s.req.SourceTargets != nil:
			offsets := s.rowOffsets(first, len(rows))
			starts := make([]int64, len(offsets))
			lists := make([]int32, 0, offsets[len(rows)])
			for i := range rows {
				starts[i] = int64(offsets[i])
				lists = append(lists, s.positions(s.req.SourceTargets[first+i])...)
			}
			starts[len(rows)] = int64(offsets[len(rows)])
			if err := c.CopyInt64ToDevice(s.rowStarts, starts); err != nil {
				return err
			}
			if err := c.CopyInt32ToDevice(s.columns, lists); err != nil {
				return err
			}
			ncolumns = int64(len(lists))
		case s.req.Targets != nil:
			ncolumns = int64(len(s.req.Targets))
		}
	}
	rowStarts := s.rowStarts.Ptr
	if s.req.SourceTargets == nil || !s.onDevice {
		rowStarts = 0
	}
	bs := s.plan.opts.ThreadsPerBlock
	if s.sweep != nil {
		err := timed(c, st, func() error {
			var summaries cu.DevicePtr
			if s.summarize {
				summaries = slot.dist.Ptr
			}
			launches, err := s.sweep.fill(c, rows, s.dist, s.metricState, s.cutoff, bs, summaries)
			st.Launches += launches
			if err != nil || s.summarize {
				return err
			}
			if s.metric {
				st.Launches += 2
				return s.gatherMetric(c, slot, &s.slotMetric[s.slotIndex(slot)], k, groups, ncolumns, rowStarts)
			}
			return s.collect(c, slot, k, groups, ncolumns, rowStarts, st)
		})
		st.HostSyncs++
		st.Sources += len(rows)
		st.Batches++
		return err
	}
	err := timed(c, st, func() error {
		if s.nearFar != nil {
			if err := s.searchMetric(c, k, groups, ncolumns, rowStarts); err != nil {
				return err
			}
			st.Launches += metricSearchLaunches + s.metricGatherLaunches()
			return s.gatherMetric(c, slot, &s.slotMetric[s.slotIndex(slot)], k, groups, ncolumns, rowStarts)
		}
		if err := c.Kernels().SSSPBatchInit(s.b.dev.Linear(groups*n*batchLanes, bs, true), s.dist.Ptr, s.pending.Ptr,
			s.queued.Ptr, s.nearQueue.Ptr, s.state.Ptr, s.sources.Ptr, n, k, s.plan.delta); err != nil {
			return err
		}
		g := s.graph.Forward()
		if err := c.Kernels().SSSPBatch(s.search, cooperativeLaunch(s.shape.blocksPerGroup, int(groups), bs),
			g.Offsets.Ptr, g.Targets.Ptr, g.Weights.Ptr, n,
			s.dist.Ptr, s.pending.Ptr, s.queued.Ptr, s.nearQueue.Ptr,
			s.state.Ptr, k, s.columns.Ptr, rowStarts, ncolumns,
			s.cutoff, s.plan.delta, s.plan.opts.Timeout.Nanoseconds(), int64(s.plan.localRounds)); err != nil {
			return err
		}
		st.Launches += 2
		return s.collect(c, slot, k, groups, ncolumns, rowStarts, st)
	})
	if err != nil {
		return err
	}
	state := make([]int32, groups*batchStateInts)
	if err := c.CopyInt32FromDevice(state, s.state); err != nil {
		return err
	}
	st.HostSyncs++
	st.Sources += len(rows)
	st.Batches++
	for g := range groups {
		row := state[g*batchStateInts : (g+1)*batchStateInts]
		if row[btAbort] != 0 {
			return fmt.Errorf("gpu: batched near-far search from %d ran past its %v time limit (%d steps done)",
				rows[g*batchLanes], s.plan.opts.Timeout, row[btSteps])
		}
		if row[btOverflow] != 0 {
			return fmt.Errorf("%w: a shortest path from one of sources %d.. is at least %d long", device.ErrNeedsInt64, rows[g*batchLanes], graph.Inf32)
		}
		if s.nearFar != nil {
			if err := metricOverflow(row, rows[g*batchLanes]); err != nil {
				return err
			}
		}
		st.Steps += int64(row[btSteps])
		st.Splits += int64(row[btSplits])
		st.Stopped += int(row[btStopped])
		st.Relaxations += int64(uint64At(row, btRelaxed))
		st.Improvements += int64(uint64At(row, btImproved))
	}
	return nil
}

// collect moves the launch's k rows into slot: as their summaries when
// the run reads only those, as sparse rows when the run allows them and
// they fit (writeCells), else gathered (gather).
func (s *batchSolver) collect(c *device.Ctx, slot *resultSlot, k, groups, ncolumns int64, rowStarts cu.DevicePtr, st *Stats) error {
	if s.summarize {
		st.Launches++
		return summarize(c, s.dist.Ptr, s.space*batchLanes, s.space, s.cutoff, s.sources.Ptr, k, slot.dist.Ptr)
	}
	if s.sparse {
		written, err := s.writeCells(c, slot, k, groups)
		if err != nil {
			return err
		}
		if written {
			st.Launches += 2
			st.SparseBlocks++
			return nil
		}
		st.Launches++
	}
	st.Launches++
	return s.gather(c, slot, k, groups, ncolumns, rowStarts)
}

// cellChunks is the number of vertex chunks the cell kernels walk.
func (s *batchSolver) cellChunks() int64 { return (s.space + batchCellChunk - 1) / batchCellChunk }

// writeCells writes the launch's k rows into slot as sparse rows, their
// cells within the cutoff in vertex order (kernels sssp_batch_cells_*),
// and sets slot.cells; it reports false, leaving slot alone, when those
// cells with their vertices would not fit the slot's k whole rows (then
// the rows are gathered whole). One round trip to the host, for the counts.
func (s *batchSolver) writeCells(c *device.Ctx, slot *resultSlot, k, groups int64) (bool, error) {
	slot.cells = nil
	n, chunks := s.space, s.cellChunks()
	strideBlocks := int64(s.b.dev.Multiprocessors() * kernels.StrideBlocksPerSM)
	const warps = 4
	cfg := kernels.Config{Grid: kernels.Dim3{X: int(max(min((chunks+warps-1)/warps, strideBlocks/groups), 1)), Y: int(groups)},
		Block: kernels.Dim3{X: 32 * warps}}
	if err := c.Kernels().SSSPBatchCellsCount(cfg, s.dist.Ptr, n, s.cutoff, s.cellCounts.Ptr); err != nil {
		return false, err
	}
	counts := make([]int32, groups*chunks*batchLanes)
	if err := c.CopyInt32FromDevice(counts, s.cellCounts); err != nil {
		return false, err
	}
	// Row r is lane r%32 of group r/32; its cells follow the previous
	// row's, chunk by chunk.
	starts := make([]int64, len(counts))
	offsets := make([]int, k+1)
	at := int64(0)
	for r := range k {
		base := (r/batchLanes)*chunks*batchLanes + r%batchLanes
		for ch := range chunks {
			i := base + ch*batchLanes
			starts[i] = at
			at += int64(counts[i])
		}
		offsets[r+1] = int(at)
	}
	if 2*at > k*s.width {
		return false, nil
	}
	if err := c.CopyInt64ToDevice(s.cellStarts, starts); err != nil {
		return false, err
	}
	rev := &devicegraph.CSR{}
	if s.req.Wants(results.Parent) {
		var err error
		if rev, err = s.graph.Reverse(c); err != nil {
			return false, err
		}
	}
	vertices := slot.dist.Ptr + cu.DevicePtr(4*at)
	if err := c.Kernels().SSSPBatchCellsWrite(cfg, rev.Offsets.Ptr, rev.Targets.Ptr, rev.Weights.Ptr, s.dist.Ptr, n, s.cutoff,
		s.sources.Ptr, k, s.cellStarts.Ptr, slot.dist.Ptr, vertices, slot.parent.Ptr); err != nil {
		return false, err
	}
	slot.cells = offsets
	return true, nil
}

// gather copies the asked columns (or whole rows) of the launch's k
// sources into slot, with parents when asked.
func (s *batchSolver) gather(c *device.Ctx, slot *resultSlot, k, groups, ncolumns int64, rowStarts cu.DevicePtr) error {
	slot.cells = nil
	n := s.space
	var rev *devicegraph.CSR
	var ids cu.DevicePtr
	switch {
	case s.req.Wants(results.Parent) && s.sweep != nil && s.sweep.compact:
		rev, ids = s.sweep.rev, s.sweep.revIDs.Ptr
	case s.req.Wants(results.Parent):
		var err error
		if rev, err = s.graph.Reverse(c); err != nil {
			return err
		}
	default:
		rev = &devicegraph.CSR{}
	}
	strideBlocks := int64(s.b.dev.Multiprocessors() * kernels.StrideBlocksPerSM)
	if rowStarts != 0 {
		x := max(min((ncolumns+255)/256, strideBlocks/groups), 1)
		cfg := kernels.Config{Grid: kernels.Dim3{X: int(x), Y: int(groups)}, Block: kernels.Dim3{X: 256}}
		return c.Kernels().SSSPBatchGatherPairs(cfg, rev.Offsets.Ptr, rev.Targets.Ptr, rev.Weights.Ptr, ids, n, s.dist.Ptr,
			s.sources.Ptr, k, s.columns.Ptr, rowStarts, slot.dist.Ptr, slot.parent.Ptr)
	}
	width := s.width
	tiles := (width + 31) / 32
	x := max(min((tiles+batchGatherWarps-1)/batchGatherWarps, strideBlocks/groups), 1)
	cfg := kernels.Config{Grid: kernels.Dim3{X: int(x), Y: int(groups)}, Block: kernels.Dim3{X: 32 * batchGatherWarps}}
	return c.Kernels().SSSPBatchGather(cfg, rev.Offsets.Ptr, rev.Targets.Ptr, rev.Weights.Ptr, ids, n, s.dist.Ptr,
		s.sources.Ptr, k, s.columns.Ptr, width, slot.dist.Ptr, slot.parent.Ptr)
}

// BatchFacts is what one device reports of a run (see
// backend.Request.Facts): the sources it searched, the rows per launch it
// chose and why it could not take more, its launches, the groups that
// stopped at their targets, and its busy and idle time.
type BatchFacts struct {
	Sources        int     `json:"sources"`
	LaunchRows     int     `json:"launch_rows"`
	BlocksPerGroup int     `json:"blocks_per_group"`
	Launches       int     `json:"launches"`
	StoppedGroups  int     `json:"groups_stopped_at_targets"`
	Steps          int64   `json:"steps"`
	KernelSeconds  float64 `json:"kernel_s"`
	BusySeconds    float64 `json:"busy_s"`
	// PrepareSeconds: the graph's upload, the reverse arcs and the
	// buffers; StagingSeconds: setting up the pinned staging (allocating
	// what was not cached); StreamSeconds: from the first block computed
	// to the last handed over.
	PrepareSeconds float64 `json:"prepare_s"`
	// UploadSeconds is the part of PrepareSeconds that sends the graph
	// or the hierarchy with its reverse arcs.
	UploadSeconds float64 `json:"upload_s,omitempty"`
	// SetupSeconds is the host's planning before PrepareSeconds (a ch
	// run's selection of the hierarchy), ReleaseSeconds the device
	// memory freed after the stream.
	SetupSeconds   float64 `json:"setup_s"`
	ReleaseSeconds float64 `json:"release_s"`
	StagingSeconds float64 `json:"staging_open_s"`
	StreamSeconds  float64 `json:"stream_s"`
	// IdleSeconds: the part of the stream the device waited for the
	// writers to release a pinned block (StreamStats.Wait).
	IdleSeconds float64 `json:"idle_s"`
	// SweptVertices: with ch, the vertices each sweep settled (all of
	// them, or the part of the hierarchy that reaches the asked columns).
	SweptVertices int64 `json:"swept_vertices,omitempty"`
	// SparseBlocks: launches whose rows left the device as their cells
	// within the cutoff.
	SparseBlocks int `json:"sparse_blocks,omitempty"`
}

// batchFacts condenses the stats of a batched run that took wall.
func batchFacts(s Stats, wall time.Duration) BatchFacts {
	return BatchFacts{
		Sources: s.Sources, LaunchRows: s.BatchSize, BlocksPerGroup: s.BlocksPerSource, Launches: s.Batches,
		StoppedGroups: s.Stopped, Steps: s.Steps,
		KernelSeconds: round3(s.Kernel.Seconds()), BusySeconds: round3(wall.Seconds()), SweptVertices: s.Swept,
		SparseBlocks: s.SparseBlocks, PrepareSeconds: round3(s.Prepare.Seconds()),
		UploadSeconds: round3(s.Upload.Seconds()),
		SetupSeconds:  round3(s.Setup.Seconds()), ReleaseSeconds: round3(s.Release.Seconds()),
		StagingSeconds: round3(s.Stream.Open.Seconds()), StreamSeconds: round3(s.Stream.Wall.Seconds()),
		IdleSeconds: round3(s.Stream.Wait.Seconds()),
	}
}

// round3 rounds to milliseconds, for reports.
func round3(x float64) float64 { return float64(int64(x*1000+0.5)) / 1000 }
