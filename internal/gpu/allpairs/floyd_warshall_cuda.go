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
	"github.com/pathflow/pathflow/internal/gpu/spread"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/kernels"
)

// Run is one all-pairs computation and its device buffers, split
// so the parts can be timed apart: Prepare uploads the graph,
// Compute runs the kernels (as often as wanted, each time from the arcs),
// Stream hands requested rows to a sink (as often as wanted), Close frees
// the device memory. Serve is the three in a row.
type Run struct {
	b    *unit
	dev  *device.Device
	plan allPairsPlan

	graph    matrixGraph
	dist     device.Buffer
	parent   device.Buffer
	negative device.Buffer // [0]: vertex reported during the run, [1]: by the final diagonal scan
	computed bool
	// lookahead overlaps the fast variant's rounds on two streams.
	lookahead bool
	// progress hears of the pivots done (see SetProgress); marks tracks
	// them during Compute.
	progress func(done, total int64)
	marks    *launchProgress
	// layout places the matrix; spread runs it when that is not on one
	// device.
	layout allPairsLayout
	spread spreadRun
}

// spreadRun is an all-pairs schedule over several devices or out of
// core: slabRun or outOfCoreRun.
type spreadRun interface {
	setProgress(fn func(done, total int64))
	compute(ctx context.Context) (time.Duration, error)
	stream(ctx context.Context, sources []int32, sink results.Sink) (device.StreamStats, error)
	moved() Traffic
	close() error
}

// SetProgress makes Compute tell fn how many of the n pivots the device
// has finished, as backend.Request.Progress describes.
func (r *Run) SetProgress(fn func(done, total int64)) { r.progress = fn }

// markPivots records that the rounds up to pivot vertex done (exclusive)
// are enqueued on s.
func (r *Run) markPivots(done int64, s cu.Stream) error {
	return r.marks.mark(min(done, r.plan.n), s)
}

// Serve answers req (a floyd-warshall Choice) on gpus, the first being
// the primary device: it computes the matrix, placed on one device, in
// row slabs over all of them or out of core, and hands the requested rows
// to sink (see Run.Stream). A request without sources is only validated.
func Serve(ctx context.Context, gpus []*device.Stager, opts Options, req backend.Request, sink results.Sink) error {
	e := req.Edges
	if e == nil {
		return errors.New("gpu: floyd-warshall needs the request's edge list")
	}
	if err := spread.CheckSources(e.N, req.Sources); err != nil {
		return err
	}
	if len(req.Sources) == 0 {
		_, err := planAllPairs(e, req.Choice.Algorithm, req.Wants(results.Parent), opts.Parents)
		return err
	}
	run, err := Prepare(gpus, opts, e, req.Choice.Algorithm, req.Wants(results.Parent))
	if err != nil {
		return err
	}
	run.SetProgress(req.Progress)
	began := time.Now()
	kernel, err := run.Compute(ctx)
	facts := Facts{KernelSeconds: seconds(kernel), ComputeSeconds: seconds(time.Since(began))}
	if err == nil {
		var stream device.StreamStats
		stream, err = run.Stream(ctx, req.Sources, req.NarrowSink(sink))
		facts.StreamSeconds, facts.StreamBytes = seconds(stream.Wall), stream.Bytes
	}
	req.ReportFact("gpu", facts)
	if cerr := run.Close(); cerr != nil {
		err = errors.Join(err, fmt.Errorf("gpu: releasing the matrix: %w", cerr))
	}
	return err
}

// Facts is what an all-pairs run reports (backend.Request.Facts, under
// "gpu"): the device time of its kernels, the wall time of the computation
// and of streaming the rows to the consumer (which runs at the consumer's
// speed: a distance matrix's writes), and the bytes streamed.
type Facts struct {
	KernelSeconds  float64 `json:"kernel_s"`
	ComputeSeconds float64 `json:"compute_s"`
	StreamSeconds  float64 `json:"stream_s"`
	StreamBytes    int64   `json:"stream_bytes"`
}

// seconds is d in seconds, rounded to milliseconds, for reports.
func seconds(d time.Duration) float64 { return float64(d.Milliseconds()) / 1000 }

// Prepare validates the request (errors: ErrNeedsInt64 (wrapped)
// when distances might not fit int32, ErrNotSupported (wrapped) for unknown
// names, variants and tile sizes, *device.OutOfMemoryError), checks that the
// device has the memory, allocates it and uploads g.
func Prepare(gpus []*device.Stager, opts Options, g *graph.EdgeList, alg backend.Algorithm, withParents bool) (*Run, error) {
	if len(gpus) == 0 {
		return nil, errors.New("gpu: an all-pairs run needs a device")
	}
	return newUnits(gpus, opts).prepare(g, alg, withParents)
}

// prepare is Prepare on b and its other devices.
func (b *unit) prepare(g *graph.EdgeList, alg backend.Algorithm, withParents bool) (*Run, error) {
	plan, err := planAllPairs(g, alg, withParents, b.opts.Parents)
	if err != nil {
		return nil, err
	}
	r := &Run{b: b, dev: b.dev, plan: plan, lookahead: b.opts.Lookahead}
	if plan.n == 0 {
		return r, nil
	}
	if r.layout, err = b.layoutAllPairs(plan); err != nil {
		return nil, err
	}
	switch r.layout.place {
	case inRowSlabs:
		r.plan = r.layout.allPairsPlan
		slabs, err := prepareSlabs(b.devices(), r.layout, g)
		if err != nil {
			return nil, err
		}
		r.spread = slabs
		return r, nil
	case outOfCore:
		r.plan = r.layout.allPairsPlan
		ooc, err := prepareOutOfCore(b, r.layout, g)
		if err != nil {
			return nil, err
		}
		r.spread = ooc
		return r, nil
	}
	in := plan.reverseGraph(g)
	err = b.dev.Do(func(c *device.Ctx) error {
		if err := c.Reserve(plan.deviceBytes(), plan.describe()); err != nil {
			return err
		}
		cells := plan.pitch * plan.pitch
		var err error
		if r.dist, err = c.Alloc(cells*4, fmt.Sprintf("distance matrix %d x %d", plan.pitch, plan.pitch)); err != nil {
			return err
		}
		if plan.parents {
			if r.parent, err = c.Alloc(cells*4, fmt.Sprintf("parent matrix %d x %d", plan.pitch, plan.pitch)); err != nil {
				return err
			}
		}
		if r.negative, err = c.Alloc(8, "negative-cycle flag"); err != nil {
			return err
		}
		r.graph, err = uploadMatrixGraph(c, g, in)
		return err
	})
	if err != nil {
		return nil, errors.Join(err, r.Close())
	}
	return r, nil
}

// Placement says where the matrix lives: "one device", "row slabs" or
// "out of core".
func (r *Run) Placement() string { return r.layout.place.String() }

// Describe names the run, its parents and its placement, for logs.
func (r *Run) Describe() string { return r.layout.describe() }

// Traffic is the bytes the last Compute moved between host and device and
// between devices (zero on one device, where nothing moves).
func (r *Run) Traffic() Traffic {
	if r.spread == nil {
		return Traffic{}
	}
	return r.spread.moved()
}

// Variant is the variant the run uses (the default resolved).
func (r *Run) Variant() string { return r.plan.variant }

// ParentMethod says how the run obtains parents: "" (distances only),
// "track" (updated by the kernels), "packed" (phase 3 carries them in the
// distances' low bits), "first-tight" or "search" (derived from the
// distances afterwards; see ParentStrategy).
func (r *Run) ParentMethod() string {
	return [...]string{"", "track", "first-tight", "search", "packed"}[r.plan.method]
}

// Pitch is the padded matrix edge on the device.
func (r *Run) Pitch() int64 { return r.plan.pitch }

// Compute runs the algorithm from the uploaded arcs and returns its device
// time (CUDA events around all of its kernels: matrix initialisation, the
// rounds, parent recovery, checks). ctx is checked between rounds. A
// negative cycle is returned as *NegativeCycleError.
func (r *Run) Compute(ctx context.Context) (time.Duration, error) {
	if r.plan.n == 0 {
		r.computed = true
		return 0, nil
	}
	if r.spread != nil {
		r.spread.setProgress(r.progress)
		elapsed, err := r.spread.compute(ctx)
		r.computed = err == nil
		return elapsed, err
	}
	var elapsed time.Duration
	err := r.dev.Do(func(c *device.Ctx) (err error) {
		timer, err := c.NewTimer()
		if err != nil {
			return err
		}
		defer device.ReleaseInto(&err, timer.Close)
		if elapsed, err = r.launchTimed(ctx, c, timer); err != nil {
			return err
		}
		return r.checkNegative(c)
	})
	if err != nil {
		return 0, err
	}
	r.computed = true
	return elapsed, nil
}

// launchTimed enqueues every kernel of the run between timer's events,
// waits for them and returns their device time. After a failed launch it
// still waits for the work already launched.
func (r *Run) launchTimed(ctx context.Context, c *device.Ctx, timer *device.Timer) (time.Duration, error) {
	if err := timer.Start(); err != nil {
		return 0, err
	}
	r.marks = &launchProgress{report: r.progress, total: r.plan.n}
	if err := r.launchAll(ctx, c); err != nil {
		// Let launched work drain before the buffers can be reused.
		return 0, errors.Join(err, c.Sync(), r.marks.finish(false))
	}
	if err := timer.Stop(); err != nil {
		return 0, err
	}
	elapsed, err := timer.Elapsed()
	if err != nil {
		return 0, err
	}
	if err := errors.Join(c.Sync(), r.marks.finish(true)); err != nil {
		return 0, err
	}
	return elapsed, nil
}

// checkNegative reads the negative-cycle flags of the finished run: a
// vertex reported by the rounds or by the final diagonal scan gives a
// *NegativeCycleError.
func (r *Run) checkNegative(c *device.Ctx) error {
	flags := make([]int32, 2)
	if err := c.CopyInt32FromDevice(flags, r.negative); err != nil {
		return err
	}
	for _, v := range flags {
		if v != math.MaxInt32 {
			return &backend.NegativeCycleError{Backend: device.Name, Vertex: v}
		}
	}
	return nil
}

// launchAll enqueues every kernel of one run.
func (r *Run) launchAll(ctx context.Context, c *device.Ctx) error {
	p := r.plan
	if err := c.FillInt32(r.negative, math.MaxInt32); err != nil {
		return err
	}
	track := r.parent
	if p.method != parentsTracked && p.method != parentsPacked {
		track = device.Buffer{}
	}
	if err := initRows(c, nil, p, r.dist.Ptr, track.Ptr, r.graph, 0, p.pitch); err != nil {
		return err
	}
	var err error
	switch p.variant {
	case VariantNaive, VariantRow:
		err = r.launchPerVertex(ctx, c, track)
	case VariantBlocked:
		err = r.launchBlocked(ctx, c, track)
	case VariantFast:
		err = r.launchFast(ctx, c, track)
	}
	if err != nil {
		return err
	}
	return finishRows(c, nil, p, r.dist.Ptr, r.parent.Ptr, r.graph, r.negative.Ptr+4, 0, p.n)
}

// cancelEvery is how many single-vertex steps run between context checks.
const cancelEvery = 256

func (r *Run) launchPerVertex(ctx context.Context, c *device.Ctx, parent device.Buffer) error {
	p := r.plan
	step, cfg := c.Kernels().FloydWarshallNaive, device.Cells(p.n, 32, 8)
	if p.parents {
		step = c.Kernels().FloydWarshallNaiveParents
	}
	if p.variant == VariantRow {
		step, cfg = c.Kernels().FloydWarshallRow, r.dev.Linear(p.n, 128, false)
		if p.parents {
			step = c.Kernels().FloydWarshallRowParents
		}
	}
	for k := int64(0); k < p.n; k++ {
		if k%cancelEvery == 0 {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("gpu: %s cancelled: %w", p.describe(), err)
			}
		}
		if err := step(cfg, r.dist.Ptr, parent.Ptr, p.n, p.pitch, k, r.negative.Ptr); err != nil {
			return err
		}
		if (k+1)%cancelEvery == 0 {
			if err := r.markPivots(k+1, cu.Stream{}); err != nil {
				return err
			}
		}
	}
	return nil
}

// phaseKernels are the three kernels of a tiled variant.
type phaseKernels struct {
	pivot       func(kernels.Config, cu.DevicePtr, cu.DevicePtr, int64, int64, cu.DevicePtr) error
	cross, rest func(kernels.Config, cu.DevicePtr, cu.DevicePtr, int64, int64) error
}

func (r *Run) launchBlocked(ctx context.Context, c *device.Ctx, parent device.Buffer) error {
	p := r.plan
	k := phaseKernels{c.Kernels().FloydWarshallBlockedPivot, c.Kernels().FloydWarshallBlockedCross, c.Kernels().FloydWarshallBlockedRest}
	if p.method == parentsTracked {
		k = phaseKernels{c.Kernels().FloydWarshallBlockedPivotParents, c.Kernels().FloydWarshallBlockedCrossParents, c.Kernels().FloydWarshallBlockedRestParents}
	}
	b := int(p.tile)
	tiles := p.pitch / p.tile
	return r.rounds(ctx, tiles, k, parent,
		device.Square(1, 1, b), device.Square(tiles-1, 2, b), device.Square(tiles-1, tiles-1, b))
}

// launchFast runs the fast variant's rounds. With lookahead (three tiles or
// more), round r's phase 3 is split: the tiles of row and column r + 1
// first, on an urgent side stream that then runs round r + 1's phases 1
// and 2, while the bulk stream updates every other tile. The next round's
// critical path thus overlaps this round's bulk, and phase 3 never waits
// for phases 1 and 2. The streams' write sets are disjoint, and each reads
// only tiles the other does not write meanwhile:
//
//	side: ahead(r) pivot(r+1) cross(r+1) | waits for bulk's rest(r)  ...
//	bulk: rest(r, skipping r+1)          | waits for side's cross(r+1) ...
func (r *Run) launchFast(ctx context.Context, c *device.Ctx, parent device.Buffer) error {
	f := newFastRounds(r, c, parent)
	if !r.lookahead || f.tiles < 3 {
		return f.serial(ctx)
	}
	return f.overlapped(ctx, c)
}

// fastRounds holds the fast variant's kernels, as the parent method picks
// them, and the arguments every launch of them shares.
type fastRounds struct {
	r     *Run
	tiles int64
	pivot func(cfg kernels.Config, dist, parent cu.DevicePtr, pitch, round int64, negative cu.DevicePtr) error
	cross func(cfg kernels.Config, dist, parent cu.DevicePtr, pitch, round int64) error
	// rest is phase 3 but for row and column skip (none when -1).
	rest func(cfg kernels.Config, dist, parent cu.DevicePtr, pitch, round, skip int64) error
	// ahead is phase 3 for row and column next only.
	ahead func(cfg kernels.Config, dist, parent cu.DevicePtr, pitch, round, next, tiles int64) error

	dist, par, neg cu.DevicePtr
	pitch          int64
}

// newFastRounds picks r's fast kernels for its parent method.
func newFastRounds(r *Run, c *device.Ctx, parent device.Buffer) *fastRounds {
	p := r.plan
	f := &fastRounds{r: r, tiles: p.pitch / p.tile, dist: r.dist.Ptr, par: parent.Ptr, neg: r.negative.Ptr, pitch: p.pitch}
	f.pivot, f.cross = c.Kernels().FloydWarshallFastPivot, c.Kernels().FloydWarshallFastCross
	f.rest, f.ahead = c.Kernels().FloydWarshallFastRest, c.Kernels().FloydWarshallFastAhead
	switch p.method {
	case parentsTracked:
		f.pivot, f.cross = c.Kernels().FloydWarshallFastPivotParents, c.Kernels().FloydWarshallFastCrossParents
		f.rest, f.ahead = c.Kernels().FloydWarshallFastRestParents, c.Kernels().FloydWarshallFastAheadParents
	case parentsPacked:
		f.pivot, f.cross = c.Kernels().FloydWarshallFastPivotParents, c.Kernels().FloydWarshallFastCrossParents
		f.rest, f.ahead = c.Kernels().FloydWarshallFastRestPacked, c.Kernels().FloydWarshallFastAheadPacked
	}
	return f
}

// onStream puts cfg on s; a nil s leaves it on the default stream.
func onStream(cfg kernels.Config, s *device.Stream) kernels.Config {
	if s != nil {
		cfg.Stream = s.CUDA()
	}
	return cfg
}

// restConfig is phase 3's launch over side x side tiles, on s.
func restConfig(side int64, s *device.Stream) kernels.Config {
	return onStream(kernels.Config{Grid: kernels.Dim3{X: int(side), Y: int(side)}, Block: kernels.Dim3{X: 256}}, s)
}

// cancelled checks ctx before a round.
func (f *fastRounds) cancelled(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("gpu: %s cancelled: %w", f.r.plan.describe(), err)
	}
	return nil
}

// serial runs the rounds one after the other on the default stream.
func (f *fastRounds) serial(ctx context.Context) error {
	for round := int64(0); round < f.tiles; round++ {
		if err := f.cancelled(ctx); err != nil {
			return err
		}
		if err := f.pivot(device.Square(1, 1, 32), f.dist, f.par, f.pitch, round, f.neg); err != nil {
			return err
		}
		if f.tiles == 1 {
			continue
		}
		if err := f.cross(device.Square(f.tiles-1, 2, 32), f.dist, f.par, f.pitch, round); err != nil {
			return err
		}
		if err := f.rest(restConfig(f.tiles-1, nil), f.dist, f.par, f.pitch, round, -1); err != nil {
			return err
		}
		if err := f.r.markPivots((round+1)*f.r.plan.tile, cu.Stream{}); err != nil {
			return err
		}
	}
	return nil
}

// overlapped runs the rounds on an urgent side stream and a bulk stream,
// as launchFast describes.
func (f *fastRounds) overlapped(ctx context.Context, c *device.Ctx) (err error) {
	side, err := c.NewStream(true)
	if err != nil {
		return err
	}
	defer device.ReleaseInto(&err, side.Close)
	bulk, err := c.NewStream(false)
	if err != nil {
		return err
	}
	defer device.ReleaseInto(&err, bulk.Close)
	if err := f.pivotAndCross(side, 0); err != nil {
		return err
	}
	for round := int64(0); round < f.tiles; round++ {
		if err := f.cancelled(ctx); err != nil {
			return err
		}
		// Phase 3 of round needs phase 2 of round.
		if err := bulk.WaitFor(side); err != nil {
			return err
		}
		if round+1 == f.tiles {
			return f.rest(restConfig(f.tiles-1, bulk), f.dist, f.par, f.pitch, round, -1)
		}
		if err := f.aheadRound(round, side, bulk); err != nil {
			return err
		}
	}
	return nil
}

// pivotAndCross enqueues phases 1 and 2 of round on side, then marks it.
func (f *fastRounds) pivotAndCross(side *device.Stream, round int64) error {
	if err := f.pivot(onStream(device.Square(1, 1, 32), side), f.dist, f.par, f.pitch, round, f.neg); err != nil {
		return err
	}
	if err := f.cross(onStream(device.Square(f.tiles-1, 2, 32), side), f.dist, f.par, f.pitch, round); err != nil {
		return err
	}
	return side.Mark()
}

// aheadRound enqueues round's phase 3 but for its last round: row and
// column round+1 and that round's phases 1 and 2 on side, every other
// tile on bulk.
func (f *fastRounds) aheadRound(round int64, side, bulk *device.Stream) error {
	next := round + 1
	// Row and column next were last updated by bulk's previous rest.
	if err := side.WaitFor(bulk); err != nil {
		return err
	}
	aheadCfg := kernels.Config{Grid: kernels.Dim3{X: int(2*f.tiles - 3)}, Block: kernels.Dim3{X: 256}, Stream: side.CUDA()}
	if err := f.ahead(aheadCfg, f.dist, f.par, f.pitch, round, next, f.tiles); err != nil {
		return err
	}
	if err := f.pivotAndCross(side, next); err != nil {
		return err
	}
	if err := f.rest(restConfig(f.tiles-2, bulk), f.dist, f.par, f.pitch, round, next); err != nil {
		return err
	}
	if err := bulk.Mark(); err != nil {
		return err
	}
	// Round's bulk ends it: the side stream only runs ahead.
	return f.r.markPivots((round+1)*f.r.plan.tile, bulk.CUDA())
}

// rounds launches the three phases for every pivot tile.
func (r *Run) rounds(ctx context.Context, tiles int64, k phaseKernels, parent device.Buffer, pivot, cross, rest kernels.Config) error {
	p := r.plan
	for round := int64(0); round < tiles; round++ {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("gpu: %s cancelled: %w", p.describe(), err)
		}
		if err := k.pivot(pivot, r.dist.Ptr, parent.Ptr, p.pitch, round, r.negative.Ptr); err != nil {
			return err
		}
		if tiles == 1 {
			continue
		}
		if err := k.cross(cross, r.dist.Ptr, parent.Ptr, p.pitch, round); err != nil {
			return err
		}
		if err := k.rest(rest, r.dist.Ptr, parent.Ptr, p.pitch, round); err != nil {
			return err
		}
		if err := r.markPivots((round+1)*p.tile, cu.Stream{}); err != nil {
			return err
		}
	}
	return nil
}

// Stream hands rows sources (any order, any subset; each row once) of the
// last Compute's matrix to sink, in blocks of pinned host memory: the copy
// engine fills the next block while the consumer encodes the previous
// ones. Sources that are consecutive matrix rows go in one 2D copy, which
// also packs the padded rows (pitch > n) to n values. Only the blocks of
// the pool (WithStaging) are ever on the host, never the whole matrix. See
// backend.Backend.Run for the consumer's part.
func (r *Run) Stream(ctx context.Context, sources []int32, sink results.Sink) (device.StreamStats, error) {
	if !r.computed {
		return device.StreamStats{}, errors.New("gpu: Stream called before a successful Compute")
	}
	if err := spread.CheckSources(int32(r.plan.n), sources); err != nil {
		return device.StreamStats{}, err
	}
	if r.spread != nil {
		return r.spread.stream(ctx, sources, sink)
	}
	return r.b.streamMatrixRows(ctx, r.plan, sourceSpan{sources: sources}, r.dist.Ptr, r.parent.Ptr, 0, sink)
}

// streamMatrixRows hands span's rows of a matrix on b's device to sink
// through b's staging: the matrices at dist and parent, rows p.pitch
// values apart, the first being vertex first's (a slab or a stripe of the
// whole matrix). Blocks' First counts from the start of the request.
func (b *unit) streamMatrixRows(ctx context.Context, p allPairsPlan, span sourceSpan, dist, parent cu.DevicePtr, first int64,
	sink results.Sink) (device.StreamStats, error) {
	o := b.st.Options()
	shape := device.ShapeStaging(p.n, len(span.sources), o.Bytes, o.Blocks, 0)
	var runs []device.RowRun
	copyRows := func(c *device.Ctx, k int, blk *device.StagedBlock, cs *device.CopyStream) error {
		runs = device.RowRuns(runs, blk.Rows().Sources)
		return copyMatrixRows(blk, runs, cs, dist, parent, first, p.n, p.pitch)
	}
	return b.st.Stream(ctx, p.n, span.sources, p.parents, shape, device.StageFuncs{Copy: copyRows}, spread.ShiftRows(sink, span.first))
}

// copyMatrixRows enqueues on cs the copies of blk's rows, whose sources
// form runs, from the matrices dist and parent (rows pitch values apart,
// the first being vertex first's) into blk's packed rows of n values.
// One 2D copy per run also drops the padding columns.
func copyMatrixRows(blk *device.StagedBlock, runs []device.RowRun, cs *device.CopyStream, dist, parent cu.DevicePtr, first, n, pitch int64) error {
	for _, run := range runs {
		off := int64(run.At) * n * 4
		src := cu.DevicePtr((int64(run.First) - first) * pitch * 4)
		if err := blk.Dist().CopyRowsFromDevice(off, n*4, dist+src, pitch*4, n*4, int64(run.Count), cs.CUDA()); err != nil {
			return err
		}
		if blk.Rows().Parent != nil {
			if err := blk.Parent().CopyRowsFromDevice(off, n*4, parent+src, pitch*4, n*4, int64(run.Count), cs.CUDA()); err != nil {
				return err
			}
		}
	}
	return nil
}

// Close frees the device memory. It is safe to call more than once.
func (r *Run) Close() error {
	if r.spread != nil {
		err := r.spread.close()
		r.spread = nil
		return err
	}
	if r.dist.Ptr == 0 && r.graph == (matrixGraph{}) && r.parent.Ptr == 0 && r.negative.Ptr == 0 {
		return nil
	}
	return r.dev.Do(func(c *device.Ctx) error {
		errs := []error{r.graph.free(c)}
		errs = append(errs, c.Free(&r.dist), c.Free(&r.parent), c.Free(&r.negative))
		return errors.Join(errs...)
	})
}
