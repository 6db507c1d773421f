//go:build cuda

package sssp

import (
	"context"

	"github.com/pathflow/pathflow/internal/gpu/device"
	"github.com/pathflow/pathflow/internal/gpu/devicegraph"
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
func (s *Solver) bellmanFord(ctx context.Context, c *device.Ctx, source int32, st *Stats) error {
	l := s.bellmanFordLaunch()
	if err := timed(c, st, func() error { return s.bellmanFordInit(c, l, source, st) }); err != nil {
		return err
	}
	n := s.plan.n
	check := make([]int32, s.plan.opts.StepsPerCheck)
	for rounds := int64(0); ; {
		if err := ctx.Err(); err != nil {
			return err
		}
		chunk := int(min(int64(len(check)), n-rounds))
		if err := timed(c, st, func() error { return s.bellmanFordRounds(c, l, chunk, st) }); err != nil {
			return err
		}
		if err := c.CopyInt32FromDevice(check[:chunk], s.single.steps); err != nil {
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
			return s.negativeCycle(ctx, source)
		}
	}
}

// bellmanFordLaunch is what every Bellman-Ford launch of a search shares.
type bellmanFordLaunch struct {
	// full has one thread per vertex; capped a grid capped to the device.
	full, capped kernels.Config
	g            *devicegraph.CSR
	// flags marks the changed vertices (bf-flags only; zero otherwise).
	flags device.Buffer
}

func (s *Solver) bellmanFordLaunch() bellmanFordLaunch {
	bs := s.plan.opts.ThreadsPerBlock
	l := bellmanFordLaunch{
		full:   s.dev.Linear(s.plan.n, bs, false),
		capped: s.dev.Linear(s.plan.n, bs, true),
		g:      s.graph.Forward(),
		flags:  s.single.second,
	}
	if s.plan.variant != VariantBFFlags {
		l.flags = device.Buffer{}
	}
	return l
}

// bellmanFordInit sets both distance buffers to the search from source
// and, for bf-flags, flags the source alone as changed.
func (s *Solver) bellmanFordInit(c *device.Ctx, l bellmanFordLaunch, source int32, st *Stats) error {
	b, n := s.single, s.plan.n
	st.Launches += 2
	if err := c.Kernels().SSSPInit(l.capped, b.dist.Ptr, b.source.Ptr, n, 1); err != nil {
		return err
	}
	if err := c.Kernels().SSSPInit(l.capped, b.first.Ptr, b.source.Ptr, n, 1); err != nil {
		return err
	}
	if l.flags.Ptr != 0 {
		if err := c.FillInt32(l.flags, 0); err != nil {
			return err
		}
		return c.CopyInt32ToDevice(device.Buffer{Ptr: l.flags.Ptr + cuPtr(4*int64(source)), Bytes: 4}, []int32{1})
	}
	return nil
}

// bellmanFordRounds clears the step flags and launches chunk rounds, each
// a relax and an update kernel that sets round r's step flag on a change.
func (s *Solver) bellmanFordRounds(c *device.Ctx, l bellmanFordLaunch, chunk int, st *Stats) error {
	b, n, g := s.single, s.plan.n, l.g
	if err := c.FillInt32(b.steps, 0); err != nil {
		return err
	}
	for r := range chunk {
		var err error
		switch s.plan.variant {
		case VariantBFNaive:
			err = c.Kernels().SSSPBfRelaxNaive(l.full, g.Offsets.Ptr, g.Targets.Ptr, g.Weights.Ptr, n, b.first.Ptr, b.dist.Ptr)
		case VariantBFStride:
			err = c.Kernels().SSSPBfRelaxStride(l.capped, g.Offsets.Ptr, g.Targets.Ptr, g.Weights.Ptr, n, b.first.Ptr, b.dist.Ptr)
		default:
			err = c.Kernels().SSSPBfRelaxFlags(l.capped, g.Offsets.Ptr, g.Targets.Ptr, g.Weights.Ptr, n, b.first.Ptr, b.dist.Ptr, l.flags.Ptr)
		}
		if err == nil {
			upd := l.capped
			if s.plan.variant == VariantBFNaive {
				upd = l.full
			}
			err = c.Kernels().SSSPBfUpdate(upd, b.first.Ptr, b.dist.Ptr, n, l.flags.Ptr, b.stepFlag(r).Ptr)
		}
		if err != nil {
			return err
		}
		st.Launches += 2
	}
	return nil
}

// negativeCycle locates the negative cycle that kept the device's
// Bellman-Ford relaxing after n rounds, on the host.
func (s *Solver) negativeCycle(ctx context.Context, source int32) error {
	return negativeCycleFrom(ctx, s.host, source)
}
