//go:build cuda

package gpu

import (
	"context"
	"fmt"

	"github.com/pathflow/pathflow/kernels"
)

// bellmanFord runs the Bellman-Ford variants of Bodra's paper: rounds of a
// relax kernel (reading the previous round's distances, atomicMin into the
// current ones) and an update kernel (copying them back, flagging changed
// vertices for bf-flags and recording whether anything changed). Rounds
// are launched StepsPerCheck at a time, each with its own change flag, so
// the host waits once per batch of rounds instead of once per round; the
// first round that changed nothing ends the search. A change in round n
// proves a negative cycle, which the host then locates. ctx is checked
// between batches of rounds.
//
// O(rounds * n) work for bf-naive and bf-stride, O(rounds * n +
// relaxations) for bf-flags; rounds <= n.
func (s *SSSPSolver) bellmanFord(ctx context.Context, c *Ctx, source int32, st *SSSPStats) error {
	b := s.single
	n := s.plan.n
	bs := s.plan.opts.BlockSize
	full := s.dev.linear(n, bs, false) // one thread per vertex
	capped := s.dev.linear(n, bs, true)
	g := s.graph.Forward()
	flags := b.second
	if s.plan.variant != VariantBFFlags {
		flags = Buffer{}
	}
	err := timed(c, st, func() error {
		st.Launches += 2
		if err := kernels.SSSPInit(capped, b.dist.Ptr, b.source.Ptr, n, 1); err != nil {
			return err
		}
		if err := kernels.SSSPInit(capped, b.first.Ptr, b.source.Ptr, n, 1); err != nil {
			return err
		}
		if flags.Ptr != 0 {
			if err := c.FillInt32(flags, 0); err != nil {
				return err
			}
			return c.CopyInt32ToDevice(Buffer{Ptr: flags.Ptr + cuPtr(4*int64(source)), Bytes: 4}, []int32{1})
		}
		return nil
	})
	if err != nil {
		return err
	}
	check := make([]int32, s.plan.opts.StepsPerCheck)
	for rounds := int64(0); ; {
		if err := ctx.Err(); err != nil {
			return err
		}
		chunk := int(min(int64(len(check)), n-rounds))
		err := timed(c, st, func() error {
			if err := c.FillInt32(b.steps, 0); err != nil {
				return err
			}
			for r := range chunk {
				var err error
				switch s.plan.variant {
				case VariantBFNaive:
					err = kernels.SSSPBfRelaxNaive(full, g.Offsets.Ptr, g.Targets.Ptr, g.Weights.Ptr, n, b.first.Ptr, b.dist.Ptr)
				case VariantBFStride:
					err = kernels.SSSPBfRelaxStride(capped, g.Offsets.Ptr, g.Targets.Ptr, g.Weights.Ptr, n, b.first.Ptr, b.dist.Ptr)
				default:
					err = kernels.SSSPBfRelaxFlags(capped, g.Offsets.Ptr, g.Targets.Ptr, g.Weights.Ptr, n, b.first.Ptr, b.dist.Ptr, flags.Ptr)
				}
				if err == nil {
					upd := capped
					if s.plan.variant == VariantBFNaive {
						upd = full
					}
					err = kernels.SSSPBfUpdate(upd, b.first.Ptr, b.dist.Ptr, n, flags.Ptr, b.stepFlag(r).Ptr)
				}
				if err != nil {
					return err
				}
				st.Launches += 2
			}
			return nil
		})
		if err != nil {
			return err
		}
		if err := c.CopyInt32FromDevice(check[:chunk], b.steps); err != nil {
			return err
		}
		st.HostSyncs++
		if z := firstZero(check[:chunk]); z >= 0 {
			st.Steps += rounds + int64(z) + 1
			return nil
		}
		rounds += int64(chunk)
		if rounds >= n {
			st.Steps += rounds
			return s.negativeCycle(source)
		}
	}
}

// negativeCycle locates the negative cycle that kept the device's
// Bellman-Ford relaxing after n rounds, on the host (negativeCycleFrom).
func (s *SSSPSolver) negativeCycle(source int32) error {
	if v := negativeCycleFrom(s.host, source); v >= 0 {
		return &NegativeCycleError{Vertex: v}
	}
	return fmt.Errorf("gpu: Bellman-Ford from %d still relaxing after %d rounds, but the host finds no negative cycle", source, s.plan.n)
}
