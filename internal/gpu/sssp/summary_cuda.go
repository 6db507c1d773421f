//go:build cuda

package sssp

import (
	"gorgonia.org/cu"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/gpu/device"
	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/kernels"
)

// summaryWarps is BT_SUMMARY_WARPS of kernels/sssp_batch_summary.cu.
const summaryWarps = 8

// summarizesOnDevice reports whether a batched run hands its rows as
// their summaries reduced on the device (kernels/sssp_batch_summary.cu):
// a request that reads only summaries (results.Shape.SummaryOnly) of whole
// rows, whose distances stay on the device. Narrowed rows are reduced on
// the host from their cells (results.Shape.SummarizeSink).
func summarizesOnDevice(req *backend.Request, onDevice bool) bool {
	return req.SummaryOnly && !req.Narrowed() && onDevice && !req.Wants(results.Parent)
}

// summarize reduces the distances of k rows, groups of batchLanes lanes
// at dist + g*stride ([count][batchLanes] int32 each, in any vertex
// order), to their summaries in out (k rows of summaryWords int32,
// zeroed here first); sources holds each row's source index in that
// order. One launch.
func summarize(c *device.Ctx, dist cu.DevicePtr, stride, count, cutoff int64, sources cu.DevicePtr, k int64, out cu.DevicePtr) error {
	if err := c.FillInt32(device.Buffer{Ptr: out, Bytes: k * summaryWords * 4}, 0); err != nil {
		return err
	}
	groups := (k + batchLanes - 1) / batchLanes
	strideBlocks := int64(c.Device().Multiprocessors() * kernels.StrideBlocksPerSM)
	x := max(min((count+summaryWarps-1)/summaryWarps, strideBlocks/groups), 1)
	cfg := kernels.Config{Grid: kernels.Dim3{X: int(x), Y: int(groups)}, Block: kernels.Dim3{X: 32 * summaryWarps}}
	return c.Kernels().SSSPBatchSummary(cfg, dist, stride, count, cutoff, sources, k, out)
}
