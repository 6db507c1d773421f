//go:build cuda

package sssp

import "github.com/pathflow/pathflow/internal/gpu/device"

// BatchLanes is batchLanes, for the benchmarks.
const BatchLanes = batchLanes

// BatchGroupBytes is batchGroupBytes, for the benchmarks.
func BatchGroupBytes(n int64) int64 { return batchGroupBytes(n) }

// FillBuffers writes v over the solver's device buffers and result rows,
// so that a cell no kernel or copy writes cannot pass for a result.
func (s *Solver) FillBuffers(v int32) error {
	return s.dev.Do(func(c *device.Ctx) error {
		var bufs []device.Buffer
		if s.nf != nil {
			bufs = append(bufs, s.nf.words, s.nf.onFar, s.nf.nearQueue, s.nf.farPile, s.nf.state)
		}
		if s.single != nil {
			bufs = append(bufs, s.single.dist, s.single.first, s.single.second, s.single.partial)
		}
		for _, slot := range s.slots {
			bufs = append(bufs, slot.dist, slot.parent)
		}
		for _, b := range bufs {
			if err := c.FillInt32(b, v); err != nil {
				return err
			}
		}
		return nil
	})
}

// FillCached writes v over the cached pinned blocks of the solver's
// device.
func (s *Solver) FillCached(v int32) { s.b.st.FillCached(v) }
