//go:build cuda

package sssp

import (
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/pathflow/pathflow/internal/gpu/device"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/hierarchy"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/kernels"
	"gorgonia.org/cu"
)

// A ch run that reports a metric (results.Metric) reports, per cell, the
// distance and metric of the path shortest by (distance, metric)
// lexicographically, the rule of graph.MetricKeys. The CPU runs on the
// arcs' keys (weight << 32 | metric); the GPU keeps the two as int32
// lanes side by side instead, so its distances stay in the layout and
// width every gather reads: the upward searches of the keyed hierarchy
// (hierarchy.WithMetricKeys) seed both, ch_sweep_metric settles each
// vertex to the lexicographically smallest pair (whose distance is the
// plain minimum, so the distances are ch_sweep's), and the metric lanes
// go through the same permutes and gathers as the distances into a
// second half of each pinned block. Parents follow the keyed rule
// (sssp_batch_parents_metric, as paths.NewKeyedParentFinder on the host).

// chMetric is what a sweep that reports a metric adds to chSweep.
type chMetric struct {
	// keyed answers the upward searches in key sums.
	keyed *hierarchy.Hierarchy
	// downHost is the metric of every swept Down arc, in the order of the
	// selection's Down arcs; down its device copy.
	downHost []int32
	down     device.Buffer
	// lanes are the metric lanes beside chSweep.lanes; seeds the metric
	// of a pass's seeds, as many as chSweep.seedCap.
	lanes, seeds device.Buffer
	// revHost is the metric of each arc of chSweep.revHost (parents
	// only); rev its device copy.
	revHost []int32
	rev     device.Buffer
}

// maxMetricSum is the largest metric a metric lane holds (METRIC_LIMIT
// of kernels/ch_sweep_metric.cu is one more).
const maxMetricSum = math.MaxInt32 - 1

// errMetricOverflow is the error of a sweep whose metric sums reached
// past maxMetricSum.
func errMetricOverflow(source int32) error {
	return fmt.Errorf("%w: a shortest path from one of sources %d.. carries a metric of at least %d", device.ErrNeedsInt64, source, maxMetricSum+1)
}

// newCHMetric prepares the metric of a sweep of h over sel: the keyed
// hierarchy and the selection's Down arcs' metric. h must carry a metric.
func newCHMetric(h *hierarchy.Hierarchy, sel *hierarchy.Selection) (*chMetric, error) {
	keyed, err := h.WithMetricKeys()
	if err != nil {
		return nil, fmt.Errorf("gpu: ch: %w", err)
	}
	m := &chMetric{keyed: keyed}
	if len(sel.Vertices) == int(h.N) {
		// Every vertex, at its rank: the Down arcs are the hierarchy's.
		m.downHost = h.DownMetric
		return m, nil
	}
	m.downHost = make([]int32, 0, len(sel.Down.Targets))
	for _, r := range sel.Vertices {
		m.downHost = append(m.downHost, h.DownMetric[h.Down.Offsets[r]:h.Down.Offsets[r+1]]...)
	}
	return m, nil
}

// checkMetricRequest refuses a metric request the GPU's ch and near-far
// cannot answer: a graph without a metric or with arcs no key holds
// (graph.MetricBound).
func checkMetricRequest(g *graph.CSR) error {
	if g.Metric == nil {
		return fmt.Errorf("gpu: a metric was asked for and the graph carries none: %w", device.ErrNotSupported)
	}
	if _, err := graph.MetricBound(g.Weights, g.Metric); err != nil {
		return fmt.Errorf("gpu: %w", err)
	}
	return nil
}

// hasZeroKeyArc reports whether an arc of g has weight and metric 0: ties
// over such arcs can close loops of tight in-neighbours, which only a
// whole row's repair on the host resolves (keyedParents), and the
// device's gather of parents keeps no rule for a loop. Broader than
// paths.MayLoop (an arc to itself, arcs in no ring): those rows too go to
// the host, whose finder gives the same parents then. O(m).
func hasZeroKeyArc(g *graph.CSR) bool {
	for a, w := range g.Weights {
		if w == 0 && g.Metric[a] == 0 {
			return true
		}
	}
	return false
}

// keyedParents is the host's part of a metric run with parents over arcs
// of weight and metric 0: each whole row's parents by the keyed rule,
// loops repaired (paths.NewKeyedParentFinder), on the workers' finders.
type keyedParents struct {
	finders []*paths.ParentFinder
	keys    [][]int64
	mu      sync.Mutex
	err     error
}

// newKeyedParents prepares workers finders over g (g.Metric set). O(n + m).
func newKeyedParents(g *graph.CSR, workers int) (*keyedParents, error) {
	f, err := paths.NewKeyedParentFinder(g)
	if err != nil {
		return nil, fmt.Errorf("gpu: keyed parents: %w", err)
	}
	k := &keyedParents{finders: []*paths.ParentFinder{f}, keys: [][]int64{make([]int64, g.N)}}
	for range max(workers, 1) - 1 {
		k.finders = append(k.finders, f.Fork())
		k.keys = append(k.keys, make([]int64, g.N))
	}
	return k, nil
}

// fill sets the parents of a block of whole rows whose distances and
// metrics (Metric64) are final, rows spread over the finders. O(rows *
// (n + m)) work.
func (k *keyedParents) fill(b *results.Rows) {
	n, rows := b.Width, b.Len()
	workers := min(len(k.finders), rows)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			keys := k.keys[w]
			for i := w; i < rows; i += workers {
				for v, d := range b.Dist32[i*n : (i+1)*n] {
					keys[v] = paths.Unreachable
					if d < graph.Inf32 {
						keys[v] = graph.Key(d, int32(b.Metric64[i*n+v]))
					}
				}
				if err := k.finders[w].Parents(b.Sources[i], keys, b.Parent[i*n:(i+1)*n]); err != nil {
					k.fail(err)
				}
			}
		})
	}
	wg.Wait()
}

// fail keeps the first error of fill.
func (k *keyedParents) fail(err error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.err == nil {
		k.err = fmt.Errorf("gpu: keyed parents: %w", err)
	}
}

// failure is fill's first error, or nil.
func (k *keyedParents) failure() error {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.err
}

// upload copies the Down arcs' metric (and the reverse arcs' for
// parents) to the device.
func (m *chMetric) upload(c *device.Ctx) error {
	var err error
	if m.down, err = c.Alloc(max(int64(len(m.downHost)), 1)*4, "hierarchy Down arc metric"); err != nil {
		return err
	}
	if err := c.CopyInt32ToDevice(m.down, m.downHost); err != nil {
		return err
	}
	if m.revHost == nil {
		return nil
	}
	if m.rev, err = c.Alloc(max(int64(len(m.revHost)), 1)*4, "reverse arc metric"); err != nil {
		return err
	}
	return c.CopyInt32ToDevice(m.rev, m.revHost)
}

// close frees what upload and the passes made.
func (m *chMetric) close(c *device.Ctx) error {
	return errors.Join(c.Free(&m.down), c.Free(&m.lanes), c.Free(&m.seeds), c.Free(&m.rev))
}

// splitSeed splits an upward search's key sum into its distance and
// metric, refusing either past what a lane holds.
func splitSeed(key int64, source int32) (int32, int32, error) {
	w, metric := graph.SplitKey(key)
	if w >= int64(graph.Inf32) {
		return 0, 0, fmt.Errorf("%w: an upward path from source %d is at least %d long", device.ErrNeedsInt64, source, graph.Inf32)
	}
	if metric > maxMetricSum {
		return 0, 0, errMetricOverflow(source)
	}
	return int32(w), int32(metric), nil
}

// metricBlocks hands each staged block's metric cells (int32, in the
// pinned block after its distances) from the copy to the block's Prepare.
type metricBlocks struct{ m sync.Map }

// put notes r's metric cells.
func (b *metricBlocks) put(r *results.Rows, metric []int32) { b.m.Store(r, metric) }

// fill sets r's metric column from the metric cells noted for it: 0
// where the distance is unreachable (graph.Inf32 and above, or past the
// cutoff). O(cells).
func (b *metricBlocks) fill(r *results.Rows) {
	v, _ := b.m.LoadAndDelete(r)
	metric, _ := v.([]int32)
	out := r.SizeMetric(len(r.Dist32))
	for i, d := range r.Dist32 {
		if d >= graph.Inf32 || i >= len(metric) {
			out[i] = 0
			continue
		}
		out[i] = int64(metric[i])
	}
}

// slotIndex is the index of slot in s.slots.
func (s *batchSolver) slotIndex(slot *resultSlot) int {
	if slot == &s.slots[1] {
		return 1
	}
	return 0
}

// gatherMetric copies the asked columns (or whole rows) of the launch's k
// sources into slot as gather does, their metrics into metric, and with
// parents those by the keyed rule: the distance gathers (without
// parents) read the metric state as they read distances, and
// sssp_batch_parents_metric writes the parents.
func (s *batchSolver) gatherMetric(c *device.Ctx, slot *resultSlot, metric *device.Buffer, k, groups, ncolumns int64, rowStarts cu.DevicePtr) error {
	slot.cells = nil
	n := s.space
	strideBlocks := int64(s.b.dev.Multiprocessors() * kernels.StrideBlocksPerSM)
	for _, g := range []struct{ from, to cu.DevicePtr }{{s.dist.Ptr, slot.dist.Ptr}, {s.metricState.Ptr, metric.Ptr}} {
		var err error
		if rowStarts != 0 {
			x := max(min((ncolumns+255)/256, strideBlocks/groups), 1)
			cfg := kernels.Config{Grid: kernels.Dim3{X: int(x), Y: int(groups)}, Block: kernels.Dim3{X: 256}}
			err = c.Kernels().SSSPBatchGatherPairs(cfg, 0, 0, 0, 0, n, g.from, s.sources.Ptr, k, s.columns.Ptr, rowStarts, g.to, 0)
		} else {
			tiles := (s.width + 31) / 32
			x := max(min((tiles+batchGatherWarps-1)/batchGatherWarps, strideBlocks/groups), 1)
			cfg := kernels.Config{Grid: kernels.Dim3{X: int(x), Y: int(groups)}, Block: kernels.Dim3{X: 32 * batchGatherWarps}}
			err = c.Kernels().SSSPBatchGather(cfg, 0, 0, 0, 0, n, g.from, s.sources.Ptr, k, s.columns.Ptr, s.width, g.to, 0)
		}
		if err != nil {
			return err
		}
	}
	if !s.req.Wants(results.Parent) || !s.onDevice {
		// Off the device, parents come from keyedParents on the host.
		return nil
	}
	rev, revMetric, ids := s.metricParentArcs()
	cells := s.width * batchLanes
	if rowStarts != 0 {
		cells = ncolumns
	}
	x := max(min((cells+255)/256, strideBlocks/groups), 1)
	cfg := kernels.Config{Grid: kernels.Dim3{X: int(x), Y: int(groups)}, Block: kernels.Dim3{X: 256}}
	columns := s.columns.Ptr
	if rowStarts == 0 && s.req.Targets == nil {
		columns = 0 // whole rows: column c is vertex c
	}
	return c.Kernels().SSSPBatchParentsMetric(cfg, rev.Offsets.Ptr, rev.Targets.Ptr, rev.Weights.Ptr, revMetric, ids,
		n, s.dist.Ptr, s.metricState.Ptr, s.sources.Ptr, k, columns, s.width, rowStarts, slot.parent.Ptr)
}
