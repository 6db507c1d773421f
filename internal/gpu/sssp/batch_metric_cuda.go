//go:build cuda

package sssp

import (
	"errors"

	"gorgonia.org/cu"

	"github.com/pathflow/pathflow/internal/gpu/device"
	"github.com/pathflow/pathflow/internal/gpu/devicegraph"
	"github.com/pathflow/pathflow/internal/results"
)

// A batched near-far run that reports a metric (results.Metric) answers
// by the rule of ch_metric_cuda.go: per cell, the distance and metric of
// the path shortest by (distance, metric) lexicographically, and parents
// along it. Its groups search 64-bit keys (graph.Key's packing: the
// distance above the metric), so one atomicMin keeps the smaller pair
// (kernels/sssp_batch_metric.cu), while the frontier and the early stop
// go by the distance alone as in sssp_batch. After the search the keys
// are split into the distance and metric lanes the ch run fills
// (sssp_batch_keys_split), and from there the gathers, the keyed parents
// and the staging are the ch run's (gatherMetric).

// nearFarMetric is what a batched near-far run that reports a metric
// adds to batchSolver.
type nearFarMetric struct {
	// search is sssp_batch_metric, loaded for cooperative launches.
	search *device.CooperativeKernel
	// arcs is the metric of every forward arc, in the graph's arc order.
	arcs device.Buffer
	// keys are the groups' lanes during a search, [groups][n][batchLanes]
	// uint64.
	keys device.Buffer
	// rev is the reverse graph and revMetric its arcs' metric, for
	// parents found on the device.
	rev       *devicegraph.CSR
	revMetric device.Buffer
}

// prepare uploads the arcs' metric, and the reverse arcs with theirs
// when parents are found on the device, and loads the search kernel.
func (m *nearFarMetric) prepare(c *device.Ctx, s *batchSolver) error {
	var err error
	if m.arcs, err = c.Alloc(max(int64(len(s.host.Metric)), 1)*4, "arc metric"); err != nil {
		return err
	}
	if err := c.CopyInt32ToDevice(m.arcs, s.host.Metric); err != nil {
		return err
	}
	if s.req.Wants(results.Parent) && s.onDevice {
		// The keyed parents read each arc's metric beside its weight: the
		// host's reverse graph carries both.
		rev := s.host.Reverse()
		if m.rev, err = devicegraph.UploadCSR(c, rev); err != nil {
			return err
		}
		if m.revMetric, err = c.Alloc(max(int64(len(rev.Metric)), 1)*4, "reverse arc metric"); err != nil {
			return err
		}
		if err := c.CopyInt32ToDevice(m.revMetric, rev.Metric); err != nil {
			return err
		}
	}
	m.search, err = loadKernel("sssp_batch_metric")
	return err
}

// close frees what prepare and the solver's allocation made.
func (m *nearFarMetric) close(c *device.Ctx) error {
	errs := []error{c.Free(&m.arcs), c.Free(&m.keys), c.Free(&m.revMetric)}
	if m.rev != nil {
		errs = append(errs, m.rev.Free(c))
	}
	if m.search != nil {
		errs = append(errs, m.search.Unload())
	}
	return errors.Join(errs...)
}

// searchMetric runs the launch's k searches on keys: it starts them as
// sssp_batch_init does (the distances, queues and state), seeds the keys
// from the distances, searches, and splits the keys into the distance
// and metric lanes. The caller reads the state rows as for sssp_batch,
// BT_METRIC_OVERFLOW besides.
func (s *batchSolver) searchMetric(c *device.Ctx, k, groups, ncolumns int64, rowStarts cu.DevicePtr) error {
	m := s.nearFar
	n := s.plan.n
	bs := s.plan.opts.ThreadsPerBlock
	cells := groups * n * batchLanes
	if err := c.Kernels().SSSPBatchInit(s.b.dev.Linear(cells, bs, true), s.dist.Ptr, s.pending.Ptr,
		s.queued.Ptr, s.nearQueue.Ptr, s.state.Ptr, s.sources.Ptr, n, k, s.plan.delta); err != nil {
		return err
	}
	if err := c.Kernels().SSSPBatchKeysSeed(s.b.dev.Linear(cells, bs, true), s.dist.Ptr, m.keys.Ptr, cells); err != nil {
		return err
	}
	g := s.graph.Forward()
	if err := c.Kernels().SSSPBatchMetric(m.search, cooperativeLaunch(s.shape.blocksPerGroup, int(groups), bs),
		g.Offsets.Ptr, g.Targets.Ptr, g.Weights.Ptr, m.arcs.Ptr, n,
		m.keys.Ptr, s.pending.Ptr, s.queued.Ptr, s.nearQueue.Ptr,
		s.state.Ptr, k, s.columns.Ptr, rowStarts, ncolumns,
		s.cutoff, s.plan.delta, s.plan.opts.Timeout.Nanoseconds(), int64(s.plan.localRounds)); err != nil {
		return err
	}
	return c.Kernels().SSSPBatchKeysSplit(s.b.dev.Linear(cells, bs, true), m.keys.Ptr, n, cells, s.dist.Ptr, s.metricState.Ptr, s.state.Ptr)
}

// metricParentArcs are the reverse arcs (with their metric, and the
// vertex ids of a compact sweep's positions) that the keyed parents of
// a metric run read on the device.
func (s *batchSolver) metricParentArcs() (rev *devicegraph.CSR, revMetric, ids cu.DevicePtr) {
	if s.sweep != nil {
		return s.sweep.rev, s.sweep.metric.rev.Ptr, s.sweep.revIDs.Ptr
	}
	return s.nearFar.rev, s.nearFar.revMetric.Ptr, 0
}

// metricOverflow is the error of a launch whose group from source first
// reached a metric past what a lane holds, or nil.
func metricOverflow(row []int32, first int32) error {
	if row[btMetricOverflow] != 0 {
		return errMetricOverflow(first)
	}
	return nil
}

// metricSearchLaunches is the kernels one metric search launch runs
// before its gathers: init, seed, search and split.
const metricSearchLaunches = 4

// metricGatherLaunches is gatherMetric's launches: the distances, the
// metrics, and the parents when they are found on the device.
func (s *batchSolver) metricGatherLaunches() int64 {
	if s.req.Wants(results.Parent) && s.onDevice {
		return 3
	}
	return 2
}
