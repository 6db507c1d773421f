package sssp

import (
	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/gpu/device"
	"github.com/pathflow/pathflow/internal/results"
)

// Host-side sizing of the batched near-far search (sssp_batch_cuda.go): no
// CUDA, so it is tested in every build.

// batchLanes is BT_LANES of kernels/sssp_batch_state.cuh: the sources a
// group searches together, one per thread of a warp.
const batchLanes = 32

// batchGroupBytes is the device memory of one group's search state over n
// vertices: a distance per lane, the pending mask and queue stamp, two
// near-queue slots per vertex, and the group's state row.
func batchGroupBytes(n int64) int64 {
	return n*(4*batchLanes+4+4+8) + 4*batchStateInts
}

// batchStateInts is BT_STATE: the ints of one group's state row.
const batchStateInts = 64

// Slots of a group's state row, as in kernels/sssp_batch_state.cuh.
const (
	btAbort    = 14
	btSteps    = 15
	btSplits   = 16
	btOverflow = 17
	btRelaxed  = 18
	btImproved = 20
	btStopped  = 22
	// btMetricOverflow is BT_METRIC_OVERFLOW of
	// kernels/sssp_batch_keys_split.cu: set when a metric search's
	// reached lane holds a metric at the clamp.
	btMetricOverflow = 23
)

// batchMaxStagingBytes bounds one pinned block of a batched run. Rows of a
// large graph are wide (96 MB per row at 24M vertices): the default
// staging (DefaultStagingBytes) would hold one row per block, so one
// source per launch; this lets a launch carry up to a group of them.
const batchMaxStagingBytes = 1 << 30

// batchWidePool is the pinned blocks of a batched run whose blocks are
// wider than the default staging: three keep the copy of one block, the
// hand-over of another and the next launch apart.
const batchWidePool = 3

// batchLaunchesPerDevice is the fewest launches each device of a shared
// feed is planned to take. The feed hands out whole launches, so with
// fewer than the devices can share evenly some stand idle while others
// run a last launch: a 10,000 x 10,000 ch table on four H200s was cut
// into six launches (by its staging), and the devices took 2, 0, 2 and
// 2 of them; cut into twelve, they took 3, 3, 3 and 3 or 2 to 4 (the
// stage 0.46-0.49 s against 0.97-1.01 s). Three is a chosen bound: the
// feed can then hand a device that starts late or runs slow fewer
// launches, at the price of smaller ones.
const batchLaunchesPerDevice = 3

// batchShape is how a batched run is cut: rows (sources) per launch and
// block, groups of batchLanes rows per launch, and blocks per group.
type batchShape struct {
	rows, groups, blocksPerGroup int
}

// planBatch sizes a batched run of total sources whose rows are width
// values wide (the widest row of a ragged request) over n vertices. A
// launch holds as many groups as the free device memory (free, after the
// graph) takes with two result slots of their rows, as the staging bytes
// hold rows, and as resident blocks allow one block per group at least.
// batch, when positive, caps the rows per launch (Options.Batch). With
// devices > 1 sharing the rows through one feed, a launch holds at most
// a batchLaunchesPerDevice'th of each device's share (in whole groups).
// Every quantity is at least one.
func planBatch(n, width int64, total int, parents bool, free, stagingBytes int64, resident, batch, devices int) batchShape {
	if total <= 0 {
		return batchShape{}
	}
	cell := int64(4)
	if parents {
		cell = 8
	}
	rowBytes := max(width, 1) * cell
	rows := min(int64(total), max(stagingBytes/(4*max(width, 1)), 1))
	if batch > 0 {
		rows = min(rows, int64(batch))
	}
	if devices > 1 {
		launches := int64(devices * batchLaunchesPerDevice)
		share := (int64(total) + launches - 1) / launches
		rows = min(rows, (share+batchLanes-1)/batchLanes*batchLanes)
	}
	// Each group costs its state and two slots of batchLanes rows.
	perGroup := batchGroupBytes(n) + 2*batchLanes*rowBytes
	groups := (rows + batchLanes - 1) / batchLanes
	groups = min(groups, max(free/perGroup, 1), int64(max(resident, 1)))
	rows = min(rows, groups*batchLanes)
	groups = (rows + batchLanes - 1) / batchLanes
	return batchShape{rows: int(rows), groups: int(groups), blocksPerGroup: max(resident/int(groups), 1)}
}

// batchStaging is the staging of a batched run whose rows are width
// values wide, from the stager's options o: the bytes of one pinned block,
// raised for wide rows so that a block can hold a group unless o is
// Fixed, and the blocks of the pool, batchWidePool for blocks wider than
// o's (pinning them costs more than the overlap of more blocks gains).
func batchStaging(width int64, o device.StagingOptions) (bytes int64, pool int) {
	bytes = o.Bytes
	if !o.Fixed {
		bytes = max(o.Bytes, min(batchLanes*4*width, batchMaxStagingBytes))
	}
	pool = o.Blocks
	if bytes > o.Bytes {
		pool = batchWidePool
	}
	return bytes, pool
}

// batchCutoff is the cutoff the kernel applies: graph.Inf32 (none) for
// results.NoCutoff and beyond, else the request's.
func batchCutoff(maxDistance int64, inf int64) int64 {
	if maxDistance == results.NoCutoff || maxDistance >= inf {
		return inf
	}
	return maxDistance
}

// useBatch reports whether a near-far request goes to the batched search:
// several sources, or targets or a cutoff to prune by. A single full
// source keeps the one-source kernel, whose shared-memory rounds make it
// faster alone.
func useBatch(req *backend.Request) bool {
	return len(req.Sources) > 1 || req.Narrowed() || req.MaxDistance != results.NoCutoff
}

// batchCellChunk is BT_CELL_CHUNK of kernels/sssp_batch_state.cuh: the
// vertices a warp walks when the rows leave the device sparse.
const batchCellChunk = 1024
