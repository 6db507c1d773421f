//go:build cuda

package sssp

import (
	"github.com/pathflow/pathflow/internal/gpu/device"
	"github.com/pathflow/pathflow/kernels"
)

// parentPass derives the parents of k rows of converged distances (dist,
// [k][n]) into parent, from the forward arcs: each vertex takes its
// smallest tight in-neighbour (see kernels/sssp_parents.cu), so no reverse
// graph is built on the host or uploaded. sources holds the rows' sources.
// O(k * m) work.
func (s *Solver) parentPass(c *device.Ctx, dist, parent, sources device.Buffer, k int64) error {
	n := s.plan.n
	if err := c.FillInt32(device.Buffer{Ptr: parent.Ptr, Bytes: 4 * k * n}, -1); err != nil {
		return err
	}
	fwd := s.graph.Forward()
	bs := int64(s.plan.opts.ThreadsPerBlock)
	x := max(min((n+bs-1)/bs, int64(s.dev.Multiprocessors()*device.StrideBlocksPerSM)/k), 1)
	cfg := kernels.Config{Grid: kernels.Dim3{X: int(x), Y: int(min(k, 65535))}, Block: kernels.Dim3{X: int(bs)}}
	return c.Kernels().SSSPParents(cfg, fwd.Offsets.Ptr, fwd.Targets.Ptr, fwd.Weights.Ptr, n, dist.Ptr, parent.Ptr, sources.Ptr, k)
}
