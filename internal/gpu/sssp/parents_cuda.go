//go:build cuda

package sssp

import (
	"github.com/pathflow/pathflow/internal/gpu/device"
	"github.com/pathflow/pathflow/kernels"
)

// parentPass derives the parents of k rows of converged distances (dist,
// [k][n]) into parent, from the reverse arcs: each vertex takes its
// smallest tight in-neighbour (see kernels/sssp_parents.cu). sources holds
// the rows' sources. O(k * m) work.
func (s *Solver) parentPass(c *device.Ctx, dist, parent, sources device.Buffer, k int64) error {
	rev, err := s.graph.Reverse(c)
	if err != nil {
		return err
	}
	n := s.plan.n
	bs := int64(s.plan.opts.ThreadsPerBlock)
	x := max(min((n+bs-1)/bs, int64(s.dev.Multiprocessors()*kernels.StrideBlocksPerSM)/k), 1)
	cfg := kernels.Config{Grid: kernels.Dim3{X: int(x), Y: int(min(k, 65535))}, Block: kernels.Dim3{X: int(bs)}}
	return c.Kernels().SSSPParents(cfg, rev.Offsets.Ptr, rev.Targets.Ptr, rev.Weights.Ptr, n, dist.Ptr, parent.Ptr, sources.Ptr, k)
}
