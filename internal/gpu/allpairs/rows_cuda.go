//go:build cuda

package allpairs

import (
	"errors"

	"gorgonia.org/cu"

	"github.com/pathflow/pathflow/internal/gpu/device"
	"github.com/pathflow/pathflow/internal/gpu/devicegraph"
	"github.com/pathflow/pathflow/internal/graph"
)

// matrixGraph is what an all-pairs run keeps of the graph on a device:
// the arcs its rows are initialised from and, when parents are derived,
// the reverse CSR they are derived from (nil otherwise).
type matrixGraph struct {
	arcs *devicegraph.EdgeList
	in   *devicegraph.CSR
}

// reverseGraph is the reverse CSR of e when p derives parents, else nil.
// Host work: build it before handing work to a device's thread.
func (p allPairsPlan) reverseGraph(e *graph.EdgeList) *graph.CSR {
	if !p.derives() {
		return nil
	}
	return graph.BuildReverseCSR(e)
}

// uploadMatrixGraph uploads e, and in unless it is nil.
func uploadMatrixGraph(c *device.Ctx, e *graph.EdgeList, in *graph.CSR) (matrixGraph, error) {
	var g matrixGraph
	var err error
	if g.arcs, err = devicegraph.UploadEdgeList(c, e); err != nil {
		return g, err
	}
	if in != nil {
		if g.in, err = devicegraph.UploadCSR(c, in); err != nil {
			return g, errors.Join(err, g.free(c))
		}
	}
	return g, nil
}

// free releases what was uploaded and forgets it; it does nothing twice.
func (g *matrixGraph) free(c *device.Ctx) error {
	var errs []error
	if g.arcs != nil {
		errs = append(errs, g.arcs.Free(c))
		g.arcs = nil
	}
	if g.in != nil {
		errs = append(errs, g.in.Free(c))
		g.in = nil
	}
	return errors.Join(errs...)
}

// initRows enqueues on s (nil: the default stream) the initialisation of
// rows first .. first+rows-1 of a matrix, at dist (and parents at parent
// when tracked, else 0), pitch values apart: 0 on the diagonal, Inf32
// elsewhere, then the arcs leaving those rows. The whole matrix of one
// device, a device's slab and an out-of-core stripe all start this way.
func initRows(c *device.Ctx, s *device.Stream, p allPairsPlan, dist, parent cu.DevicePtr, g matrixGraph, first, rows int64) error {
	d := c.Device()
	if err := c.Kernels().APSPInit(onStream(d.RowGrid(rows, p.pitch, 256), s), dist, parent, p.pitch, first, rows); err != nil {
		return err
	}
	if p.m == 0 {
		return nil
	}
	e := g.arcs
	return c.Kernels().APSPLoadArcs(onStream(d.Linear(p.m, 256, true), s), dist, parent,
		e.Src.Ptr, e.Dst.Ptr, e.Weight.Ptr, p.m, p.pitch, first, rows)
}

// finishRows enqueues on s (nil: the default stream) what follows the
// rounds for rows first .. first+rows-1 of a matrix, vertices below n,
// whose rows are at dist (and parents at parent), pitch values apart:
// unreachable sums back to Inf32 when arcs are negative, the diagonal scan
// into negative, and parents derived from the distances when the plan
// derives them (from g's reverse CSR). The whole matrix of one device, a
// device's slab and an out-of-core stripe all finish this way.
func finishRows(c *device.Ctx, s *device.Stream, p allPairsPlan, dist, parent cu.DevicePtr, g matrixGraph, negative cu.DevicePtr, first, rows int64) error {
	if rows <= 0 {
		return nil
	}
	d := c.Device()
	if p.negative {
		if err := c.Kernels().APSPFinish(onStream(d.RowGrid(rows, p.n, 256), s), dist, parent, p.n, p.pitch, p.threshold, rows); err != nil {
			return err
		}
	}
	if err := c.Kernels().APSPNegativeDiagonal(onStream(d.Linear(rows, 256, true), s), dist, p.pitch, negative, first, rows); err != nil {
		return err
	}
	in := g.in
	switch p.method {
	case parentsFirstTight:
		cfg := d.Linear(p.n, 128, false)
		cfg.Grid.Y = int(min(rows, 65535))
		return c.Kernels().APSPRecoverParents(onStream(cfg, s), dist, parent, p.n, p.pitch,
			in.Offsets.Ptr, in.Targets.Ptr, in.Weights.Ptr, first, rows)
	case parentsSearch:
		cfg := d.Linear(min(rows, int64(d.Multiprocessors())*8)*256, 256, false)
		return c.Kernels().APSPSearchParents(onStream(cfg, s), dist, parent, p.n, p.pitch,
			in.Offsets.Ptr, in.Targets.Ptr, in.Weights.Ptr, first, rows)
	}
	return nil
}
