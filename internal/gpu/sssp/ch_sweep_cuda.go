//go:build cuda

package sssp

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/gpu/device"
	"github.com/pathflow/pathflow/internal/gpu/devicegraph"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/hierarchy"
	"github.com/pathflow/pathflow/internal/parallel"
	"github.com/pathflow/pathflow/internal/results"
	"gorgonia.org/cu"
)

// chSweep computes the distances of a batched run's groups by PHAST
// sweeps over a contraction hierarchy (kernels/ch_*.cu) instead of
// near-far searches: the host runs each source's upward search (a few
// hundred vertices on a road network), the device seeds the groups' lanes
// with them and settles the swept vertices level by level, top down, all
// groups of a pass in each launch, then copies the lanes into the groups'
// slots of the batched state in original ids, where the batched run's
// gathers read them as they read a search's. When only some columns are
// asked (targets, pairs) the sweep is restricted to the part of the
// hierarchy that reaches them (hierarchy.Selection); otherwise it covers
// every vertex. O(swept vertices + their Down arcs) per 32 sources.
//
// A restricted sweep is compact: the batched run then keeps its groups'
// distances over the swept vertices alone (its state, columns and sources
// given as positions in the selection), reads parents through a reverse
// graph of the columns' in-arcs over those positions, and maps the parents
// back to vertex ids on the host; the graph itself is never uploaded.
type chSweep struct {
	h       *hierarchy.Hierarchy
	sel     *hierarchy.Selection
	workers int
	down    *devicegraph.CSR
	// compact: the sweep is restricted and the run works over positions.
	// rev is then the columns' in-arcs over positions (parents only),
	// revHost its host copy, ids the vertex id of every position and
	// revIDs their device copy (parents only), by which the gathers pick
	// the smallest tight in-neighbour.
	compact bool
	revHost *graph.CSR
	rev     *devicegraph.CSR
	ids     []int32
	revIDs  device.Buffer
	// vertices are the swept vertices' original ids, in swept order;
	// lanes the [perPass][swept][32] distances of one pass of groups;
	// seedAt and seedDist the seeds of a pass, with room for seedCap;
	// overflow the sweeps' int32 overflow flag.
	vertices, lanes, seedAt, seedDist, overflow device.Buffer
	perPass                                     int
	seedCap                                     int64
	// sourceAt holds, for a run of summaries, each row's source as its
	// position among the swept vertices, room for sourceCap rows.
	sourceAt  device.Buffer
	sourceCap int64
	// metric, for a run that reports a metric, is what its sweeps add
	// (ch_metric_cuda.go); nil otherwise.
	metric *chMetric
}

// chSelectAll: a selection of more than 1/chSelectAll of the vertices is
// swept whole, in the batched search's layout of every vertex.
const chSelectAll = 2

// newCHSweep plans the sweeps of req over h: restricted and compact when
// the rows are narrowed on the device and what reaches the asked columns
// (and their in-neighbours, which the parents rule reads) is at most half
// the graph, else whole. With metric the sweeps also sum the metric
// (h must carry one, hierarchy.HasMetric).
func newCHSweep(h *hierarchy.Hierarchy, g *graph.CSR, req *backend.Request, onDevice, metric bool, workers int) (*chSweep, error) {
	w := &chSweep{h: h, workers: workers}
	var columns []int32
	var in []inArc
	if onDevice && req.Narrowed() {
		seen := make([]bool, g.N)
		add := func(v int32) {
			if !seen[v] {
				seen[v] = true
				columns = append(columns, v)
			}
		}
		for _, v := range req.Targets {
			add(v)
		}
		for _, list := range req.SourceTargets {
			for _, v := range list {
				add(v)
			}
		}
		if req.Wants(results.Parent) {
			in = inArcs(g, seen, workers)
			for _, a := range in {
				add(a.tail)
			}
		}
	}
	var err error
	if columns != nil {
		w.sel, err = h.Select(columns)
		w.compact = err == nil && int64(len(w.sel.Vertices))*chSelectAll <= int64(h.N)
	}
	if err == nil && !w.compact {
		w.sel, err = h.Select(nil)
	}
	if err != nil {
		return nil, fmt.Errorf("gpu: ch: %w", err)
	}
	if metric {
		if w.metric, err = newCHMetric(h, w.sel); err != nil {
			return nil, err
		}
	}
	if w.compact {
		w.ids = make([]int32, len(w.sel.Vertices))
		for i, r := range w.sel.Vertices {
			w.ids[i] = h.Order[r]
		}
		if req.Wants(results.Parent) {
			w.revHost = w.reverseOver(in)
		}
	} else if metric && onDevice && req.Wants(results.Parent) {
		// The keyed parents read each arc's metric beside its weight:
		// the host's reverse graph carries both.
		w.revHost = g.Reverse()
	}
	if w.metric != nil && w.revHost != nil {
		w.metric.revHost = w.revHost.Metric
	}
	return w, nil
}

// hostCopy is a sweep with w's host-side plan (the selection, the
// reverse graph and ids of a compact run, the metric's host arrays),
// shared and read-only, and no device state: each device that serves the
// plan's request prepares its own. A host-side field newCHSweep sets must
// be copied here too.
func (w *chSweep) hostCopy() *chSweep {
	c := &chSweep{h: w.h, sel: w.sel, workers: w.workers, compact: w.compact, revHost: w.revHost, ids: w.ids}
	if m := w.metric; m != nil {
		c.metric = &chMetric{keyed: m.keyed, downHost: m.downHost, revHost: m.revHost}
	}
	return c
}

// inArc is an arc tail -> head of the graph, weight w and metric m (0
// without a metric).
type inArc struct{ tail, head, w, m int32 }

// inArcs lists the arcs into the vertices marked in into, in the order of
// their tails, scanning the graph's arcs on workers goroutines. O(m / workers).
func inArcs(g *graph.CSR, into []bool, workers int) []inArc {
	chunks := max(1, min(workers, int(g.N)/4096+1))
	parts := make([][]inArc, chunks)
	var wg sync.WaitGroup
	for c := range chunks {
		wg.Go(func() {
			lo, hi := int64(g.N)*int64(c)/int64(chunks), int64(g.N)*int64(c+1)/int64(chunks)
			for u := int32(lo); u < int32(hi); u++ {
				for a := g.Offsets[u]; a < g.Offsets[u+1]; a++ {
					if v := g.Targets[a]; into[v] {
						arc := inArc{tail: u, head: v, w: g.Weights[a]}
						if g.Metric != nil {
							arc.m = g.Metric[a]
						}
						parts[c] = append(parts[c], arc)
					}
				}
			}
		})
	}
	wg.Wait()
	var all []inArc
	for _, p := range parts {
		all = append(all, p...)
	}
	return all
}

// reverseOver is the reverse graph of the arcs in over the selection's
// positions: row p lists the tails of the arcs into the vertex at p, with
// their metric when the sweeps sum one.
func (w *chSweep) reverseOver(in []inArc) *graph.CSR {
	count := len(w.sel.Vertices)
	rev := &graph.CSR{N: int32(count), Offsets: make([]int64, count+1), Targets: make([]int32, len(in)), Weights: make([]int32, len(in))}
	if w.metric != nil {
		rev.Metric = make([]int32, len(in))
	}
	for _, a := range in {
		rev.Offsets[w.Position(a.head)+1]++
	}
	for p := range count {
		rev.Offsets[p+1] += rev.Offsets[p]
	}
	next := slices.Clone(rev.Offsets[:count])
	for _, a := range in {
		p := w.Position(a.head)
		rev.Targets[next[p]], rev.Weights[next[p]] = w.Position(a.tail), a.w
		if rev.Metric != nil {
			rev.Metric[next[p]] = a.m
		}
		next[p]++
	}
	return rev
}

// Position is the position of vertex v in a compact run, or -1 when v is
// not swept; v itself when the run is not compact.
func (w *chSweep) Position(v int32) int32 {
	if !w.compact {
		return v
	}
	return w.sel.Position(w.h.Rank[v])
}

// space is the number of vertices the batched run keeps distances for.
func (w *chSweep) space() int64 {
	if w.compact {
		return w.swept()
	}
	return int64(w.h.N)
}

// idsOf replaces every position in parents (-1 left alone) by its vertex
// id: a compact run's parents, as the rows report them. It runs on the
// device's hand-over goroutine, so a large block's cells are mapped on
// every core (0.18 cpu-s of a 10^8-cell table), in ranges of at least
// idsPerChunk.
func (w *chSweep) idsOf(parents []int32) {
	parallel.Chunks(len(parents), runtime.GOMAXPROCS(0), idsPerChunk, func(_, lo, hi int) {
		for i, p := range parents[lo:hi] {
			if p >= 0 {
				parents[lo+i] = w.ids[p]
			}
		}
	})
}

// idsPerChunk is the fewest parents a goroutine of idsOf maps: a chosen
// bound, as resultfiles' cellsPerChunk.
const idsPerChunk = 1 << 20

// swept is the number of vertices a sweep settles.
func (w *chSweep) swept() int64 { return int64(len(w.sel.Vertices)) }

// prepare uploads the swept part of the hierarchy and room for one
// group's lanes, before the batched run sizes its groups from the memory
// left; grow then widens the passes.
func (w *chSweep) prepare(c *device.Ctx) error {
	var err error
	if w.down, err = devicegraph.UploadCSR(c, &w.sel.Down); err != nil {
		return err
	}
	if w.revHost != nil {
		if w.rev, err = devicegraph.UploadCSR(c, w.revHost); err != nil {
			return err
		}
	}
	if w.revHost != nil && w.compact {
		if w.revIDs, err = c.Alloc(int64(len(w.ids))*4, "selection vertex ids"); err != nil {
			return err
		}
		if err := c.CopyInt32ToDevice(w.revIDs, w.ids); err != nil {
			return err
		}
	}
	if w.metric != nil {
		if err := w.metric.upload(c); err != nil {
			return err
		}
	}
	if !w.compact {
		// A whole sweep covers every hierarchy id in order: position r
		// holds vertex Order[r].
		if w.vertices, err = c.Alloc(max(int64(w.h.N), 1)*4, "hierarchy vertex ids"); err != nil {
			return err
		}
		if err := c.ShareInt32ToDevice(w.vertices, w.h.Order); err != nil {
			return err
		}
	}
	if w.overflow, err = c.Alloc(4, "hierarchy overflow flag"); err != nil {
		return err
	}
	if err := c.FillInt32(w.overflow, 0); err != nil {
		return err
	}
	return w.allocLanes(c, 1)
}

// grow makes room for passes of up to groups groups, as many as the free
// memory takes (at least the one prepare made room for).
func (w *chSweep) grow(c *device.Ctx, groups int) error {
	free, _, err := c.MemInfo()
	if err != nil {
		return err
	}
	perGroup := max(w.swept(), 1) * batchLanes * 4
	if w.metric != nil {
		perGroup *= 2
	}
	fit := int(min(int64(groups), (free-free/8)/perGroup+int64(w.perPass)))
	if fit <= w.perPass {
		return nil
	}
	if err := c.Free(&w.lanes); err != nil {
		return err
	}
	if w.metric != nil {
		if err := c.Free(&w.metric.lanes); err != nil {
			return err
		}
	}
	return w.allocLanes(c, fit)
}

// allocLanes allocates the lanes of passes of groups groups (and their
// metric lanes).
func (w *chSweep) allocLanes(c *device.Ctx, groups int) error {
	bytes := int64(groups) * max(w.swept(), 1) * batchLanes * 4
	var err error
	if w.lanes, err = c.Alloc(bytes, "hierarchy sweep lanes"); err != nil {
		return err
	}
	if w.metric != nil {
		if w.metric.lanes, err = c.Alloc(bytes, "hierarchy sweep metric lanes"); err != nil {
			return err
		}
	}
	w.perPass = groups
	return nil
}

// close frees what prepare, grow and fill made.
func (w *chSweep) close(c *device.Ctx) error {
	errs := []error{c.Free(&w.vertices), c.Free(&w.revIDs), c.Free(&w.lanes), c.Free(&w.seedAt), c.Free(&w.seedDist), c.Free(&w.overflow), c.Free(&w.sourceAt)}
	for _, g := range []*devicegraph.CSR{w.down, w.rev} {
		if g != nil {
			errs = append(errs, g.Free(c))
		}
	}
	if w.metric != nil {
		errs = append(errs, w.metric.close(c))
	}
	return errors.Join(errs...)
}

// fill sweeps the groups of one launch (sources rows, 32 per group) and
// writes group g's distances, at most cutoff (farther ones INF32), to
// dist + g*space*32 int32: by vertex id at the swept vertices, or by
// position when compact. With summaries not null it writes each row's
// summary there instead (summaryWords int32 a row, sssp_batch_summary
// over the lanes in hierarchy order), and dist is not read. A sweep
// that sums a metric writes it to metric in dist's layout (no summaries
// then). It returns the kernel launches.
func (w *chSweep) fill(c *device.Ctx, rows []int32, dist, metric device.Buffer, cutoff int64, blockSize int, summaries cu.DevicePtr) (int64, error) {
	up := w.h
	if w.metric != nil {
		up = w.metric.keyed
	}
	seeds, err := up.UpwardSearches(rows, w.workers)
	if err != nil {
		return 0, err
	}
	if summaries != 0 {
		if err := w.uploadSources(c, rows); err != nil {
			return 0, err
		}
	}
	n, count := w.space(), w.swept()
	stride := count * batchLanes
	groups := (len(rows) + batchLanes - 1) / batchLanes
	dev := c.Device()
	launches := int64(0)
	var at []int64
	var d, dm []int32
	for g0 := 0; g0 < groups; g0 += w.perPass {
		pass := min(w.perPass, groups-g0)
		at, d, dm = at[:0], d[:0], dm[:0]
		for r := g0 * batchLanes; r < min(len(rows), (g0+pass)*batchLanes); r++ {
			base := int64(r/batchLanes-g0)*stride + int64(r%batchLanes)
			s := seeds[r]
			for i, v := range s.Vertices {
				p := w.sel.Position(v)
				if p < 0 {
					continue
				}
				at = append(at, base+int64(p)*batchLanes)
				if w.metric != nil {
					sw, sm, err := splitSeed(s.Dist[i], rows[r])
					if err != nil {
						return launches, err
					}
					d, dm = append(d, sw), append(dm, sm)
					continue
				}
				if s.Dist[i] >= int64(graph.Inf32) {
					return launches, fmt.Errorf("%w: an upward path from source %d is at least %d long", device.ErrNeedsInt64, rows[r], graph.Inf32)
				}
				d = append(d, int32(s.Dist[i]))
			}
		}
		if err := w.upload(c, at, d, dm); err != nil {
			return launches, err
		}
		if err := c.FillInt32(device.Buffer{Ptr: w.lanes.Ptr, Bytes: int64(pass) * stride * 4}, graph.Inf32); err != nil {
			return launches, err
		}
		if len(at) > 0 {
			if err := c.Kernels().ChSeed(dev.Linear(int64(len(at)), blockSize, true), w.lanes.Ptr, w.seedAt.Ptr, w.seedDist.Ptr, int64(len(at))); err != nil {
				return launches, err
			}
			launches++
			if w.metric != nil {
				if err := c.Kernels().ChSeed(dev.Linear(int64(len(at)), blockSize, true), w.metric.lanes.Ptr, w.seedAt.Ptr, w.metric.seeds.Ptr, int64(len(at))); err != nil {
					return launches, err
				}
				launches++
			}
		}
		levels := w.sel.Levels
		for l := len(levels) - 2; l >= 0; l-- {
			lo, hi := int64(levels[l]), int64(levels[l+1])
			cfg := dev.Linear((hi-lo)*32, blockSize, true)
			cfg.Grid.Y = pass
			var err error
			if w.metric != nil {
				err = c.Kernels().ChSweepMetric(cfg, w.down.Offsets.Ptr, w.down.Targets.Ptr, w.down.Weights.Ptr, w.metric.down.Ptr,
					w.lanes.Ptr, w.metric.lanes.Ptr, stride, lo, hi, w.overflow.Ptr)
			} else {
				err = c.Kernels().ChSweep(cfg, w.down.Offsets.Ptr, w.down.Targets.Ptr, w.down.Weights.Ptr,
					w.lanes.Ptr, stride, lo, hi, w.overflow.Ptr)
			}
			if err != nil {
				return launches, err
			}
			launches++
		}
		if summaries != 0 {
			first := int64(g0) * batchLanes
			k := min(int64(len(rows)), int64(g0+pass)*batchLanes) - first
			if err := summarize(c, w.lanes.Ptr, stride, count, cutoff, w.sourceAt.Ptr+cu.DevicePtr(4*first), k,
				summaries+cu.DevicePtr(first*summaryWords*4)); err != nil {
				return launches, err
			}
			launches++
			continue
		}
		cfg := dev.Linear(count*32, blockSize, true)
		cfg.Grid.Y = pass
		out := dist.Ptr + cu.DevicePtr(int64(g0)*n*batchLanes*4)
		// vertices is null when compact: position i goes to slot i.
		if err := c.Kernels().ChPermute(cfg, w.lanes.Ptr, stride, 0, w.vertices.Ptr, count, n, cutoff, out); err != nil {
			return launches, err
		}
		launches++
		if w.metric != nil {
			// No cutoff: a cell past it reads as unreachable by its
			// distance, and the host reports its metric as 0.
			out := metric.Ptr + cu.DevicePtr(int64(g0)*n*batchLanes*4)
			if err := c.Kernels().ChPermute(cfg, w.metric.lanes.Ptr, stride, 0, w.vertices.Ptr, count, n, math.MaxInt32, out); err != nil {
				return launches, err
			}
			launches++
		}
	}
	flag := make([]int32, 1)
	if err := c.CopyInt32FromDevice(flag, w.overflow); err != nil {
		return launches, err
	}
	if flag[0] != 0 {
		if w.metric != nil {
			return launches, fmt.Errorf("%w: a shortest path from one of sources %d.. is at least %d long or carries a metric of at least %d", device.ErrNeedsInt64, rows[0], graph.Inf32, maxMetricSum+1)
		}
		return launches, fmt.Errorf("%w: a shortest path from one of sources %d.. is at least %d long", device.ErrNeedsInt64, rows[0], graph.Inf32)
	}
	return launches, nil
}

// uploadSources copies the position of every row's source among the
// swept vertices (-1 when not swept) to sourceAt, growing it when too
// small: the summaries tell the source's own cell by it.
func (w *chSweep) uploadSources(c *device.Ctx, rows []int32) error {
	if int64(len(rows)) > w.sourceCap {
		if err := c.Free(&w.sourceAt); err != nil {
			return err
		}
		w.sourceCap = int64(len(rows))
		var err error
		if w.sourceAt, err = c.Alloc(w.sourceCap*4, "hierarchy sweep source positions"); err != nil {
			return err
		}
	}
	at := make([]int32, len(rows))
	for i, v := range rows {
		at[i] = w.sel.Position(w.h.Rank[v])
	}
	return c.CopyInt32ToDevice(w.sourceAt, at)
}

// upload copies a pass's seeds (and their metric dm, for a sweep that sums
// one) to the device, growing their buffers when they are too small.
func (w *chSweep) upload(c *device.Ctx, at []int64, d, dm []int32) error {
	if int64(len(at)) > w.seedCap {
		if err := errors.Join(c.Free(&w.seedAt), c.Free(&w.seedDist)); err != nil {
			return err
		}
		if w.metric != nil {
			if err := c.Free(&w.metric.seeds); err != nil {
				return err
			}
		}
		w.seedCap = max(int64(len(at)), 2*w.seedCap, 4096)
		var err error
		if w.seedAt, err = c.Alloc(w.seedCap*8, "hierarchy seeds"); err != nil {
			return err
		}
		if w.seedDist, err = c.Alloc(w.seedCap*4, "hierarchy seed distances"); err != nil {
			return err
		}
		if w.metric != nil {
			if w.metric.seeds, err = c.Alloc(w.seedCap*4, "hierarchy seed metric"); err != nil {
				return err
			}
		}
	}
	if len(at) == 0 {
		return nil
	}
	if err := c.CopyInt64ToDevice(w.seedAt, at); err != nil {
		return err
	}
	if w.metric != nil {
		if err := c.CopyInt32ToDevice(w.metric.seeds, dm); err != nil {
			return err
		}
	}
	return c.CopyInt32ToDevice(w.seedDist, d)
}
