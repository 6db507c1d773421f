//go:build cuda

package sssp

import (
	"context"

	"github.com/pathflow/pathflow/internal/gpu/device"
)

// dijkstra runs the GPU Dijkstra of Martin, Torres and Gavilanes as the
// thesis lays it out: per step a relax kernel (frontier vertices lower
// their unsettled successors with atomicMin), a minimum over the unsettled
// distances (a block reduction, then a one-block pass over the partial
// minima, kept on the device), and an update kernel that settles every
// unsettled vertex at that minimum as the next frontier. Steps are launched
// StepsPerCheck at a time; each update records in its own flag whether the
// minimum was infinite, which ends the search. ctx is checked between
// batches of steps.
//
// One step per distinct distance value: O(steps * n) work.
func (s *Solver) dijkstra(ctx context.Context, c *device.Ctx, source int32, st *Stats) error {
	b := s.single
	n := s.plan.n
	bs := s.plan.opts.ThreadsPerBlock
	capped := s.dev.Linear(n, bs, true)
	minimum := s.dev.Linear(int64(b.minBlocks)*int64(bs), bs, false)
	final := s.dev.Linear(1024, 1024, false)
	g := s.graph.Forward()
	err := timed(c, st, func() error {
		st.Launches++
		return c.Kernels().SSSPDijkstraInit(capped, b.dist.Ptr, b.first.Ptr, b.second.Ptr, n, int64(source))
	})
	if err != nil {
		return err
	}
	check := make([]int32, s.plan.opts.StepsPerCheck)
	for steps := int64(0); ; {
		if err := ctx.Err(); err != nil {
			return err
		}
		err := timed(c, st, func() error {
			if err := c.FillInt32(b.steps, 0); err != nil {
				return err
			}
			for i := range check {
				if err := c.Kernels().SSSPDijkstraRelax(capped, g.Offsets.Ptr, g.Targets.Ptr, g.Weights.Ptr, n,
					b.dist.Ptr, b.first.Ptr, b.second.Ptr); err != nil {
					return err
				}
				if err := c.Kernels().SSSPDijkstraMinimum(minimum, b.dist.Ptr, b.second.Ptr, n, b.partial.Ptr); err != nil {
					return err
				}
				if err := c.Kernels().SSSPDijkstraMinimumFinal(final, b.partial.Ptr, int64(b.minBlocks), b.scalar.Ptr); err != nil {
					return err
				}
				if err := c.Kernels().SSSPDijkstraUpdate(capped, b.dist.Ptr, b.first.Ptr, b.second.Ptr, n,
					b.scalar.Ptr, b.stepFlag(i).Ptr); err != nil {
					return err
				}
				st.Launches += 4
			}
			return nil
		})
		if err != nil {
			return err
		}
		if err := c.CopyInt32FromDevice(check, b.steps); err != nil {
			return err
		}
		st.HostSyncs++
		// The update kernel sets its flag when the search is over: the
		// step flags read 0 while it runs, so look for the first 1.
		for i, done := range check {
			if done != 0 {
				st.Steps += steps + int64(i) + 1
				return nil
			}
		}
		steps += int64(len(check))
		if steps > n+1 {
			return errNoProgress(VariantDijkstra, source, steps)
		}
	}
}
