//go:build cuda

package gpu

import (
	"gorgonia.org/cu"
)

// finishRows enqueues on s (nil: the default stream) what follows the
// rounds for rows first .. first+rows-1 of a matrix, vertices below n,
// whose rows are at dist (and parents at parent), pitch values apart:
// unreachable sums back to Inf32 when arcs are negative, the diagonal scan
// into negative, and parents derived from the distances when the plan
// derives them (in is the reverse CSR). The whole matrix of one device,
// a device's slab and an out-of-core stripe all finish this way.
func finishRows(c *Ctx, s *Stream, p allPairsPlan, dist, parent cu.DevicePtr, in *DeviceCSR, negative cu.DevicePtr, first, rows int64) error {
	if rows <= 0 {
		return nil
	}
	d := c.dev
	if p.negative {
		if err := c.kernels.APSPFinish(onStream(d.rows(rows, p.n, 256), s), dist, parent, p.n, p.pitch, p.threshold, rows); err != nil {
			return err
		}
	}
	if err := c.kernels.APSPNegativeDiagonal(onStream(d.linear(rows, 256, true), s), dist, p.pitch, negative, first, rows); err != nil {
		return err
	}
	switch p.method {
	case parentsFirstTight:
		cfg := d.linear(p.n, 128, false)
		cfg.Grid.Y = int(min(rows, 65535))
		return c.kernels.APSPRecoverParents(onStream(cfg, s), dist, parent, p.n, p.pitch,
			in.Offsets.Ptr, in.Targets.Ptr, in.Weights.Ptr, first, rows)
	case parentsSearch:
		cfg := d.linear(min(rows, int64(d.sms)*8)*256, 256, false)
		return c.kernels.APSPSearchParents(onStream(cfg, s), dist, parent, p.n, p.pitch,
			in.Offsets.Ptr, in.Targets.Ptr, in.Weights.Ptr, first, rows)
	}
	return nil
}
