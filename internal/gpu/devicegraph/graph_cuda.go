//go:build cuda

package devicegraph

import (
	"errors"
	"fmt"

	"github.com/pathflow/pathflow/internal/gpu/device"
	"github.com/pathflow/pathflow/internal/graph"
)

// EdgeList is an arc list on the device: Src, Dst and Weight hold M
// int32 each, in the host list's order.
type EdgeList struct {
	N                int32
	M                int64
	Src, Dst, Weight device.Buffer
}

// UploadEdgeList copies e to the device. The caller frees the result with
// Free on the same device.
func UploadEdgeList(c *device.Ctx, e *graph.EdgeList) (*EdgeList, error) {
	m := int64(e.M())
	g := &EdgeList{N: e.N, M: m}
	if err := c.Reserve(3*4*m, fmt.Sprintf("edge list (%d arcs)", m)); err != nil {
		return nil, err
	}
	for _, part := range []struct {
		buf  *device.Buffer
		host []int32
		what string
	}{{&g.Src, e.Src, "arc sources"}, {&g.Dst, e.Dst, "arc targets"}, {&g.Weight, e.Weight, "arc weights"}} {
		var err error
		if *part.buf, err = c.Alloc(4*m, part.what); err == nil {
			err = c.CopyInt32ToDevice(*part.buf, part.host)
		}
		if err != nil {
			return nil, errors.Join(err, g.Free(c))
		}
	}
	return g, nil
}

// Free releases the device buffers.
func (g *EdgeList) Free(c *device.Ctx) error {
	var first error
	for _, b := range []*device.Buffer{&g.Src, &g.Dst, &g.Weight} {
		if err := c.Free(b); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// CSR is a CSR graph on the device: Offsets holds N+1 int64, Targets
// and Weights M int32 each (see graph.CSR).
type CSR struct {
	N                         int32
	M                         int64
	Offsets, Targets, Weights device.Buffer
}

// UploadCSR copies g to the device. The caller frees the result with Free.
// The arrays go through the context's UploadShare, if it has one
// (device.Ctx.ShareInt32ToDevice): g stays unchanged while the result
// lives, and no kernel writes the result.
func UploadCSR(c *device.Ctx, g *graph.CSR) (*CSR, error) {
	m := int64(g.M())
	d := &CSR{N: g.N, M: m}
	if err := c.Reserve(8*int64(g.N+1)+8*m, fmt.Sprintf("CSR graph (%d vertices, %d arcs)", g.N, m)); err != nil {
		return nil, err
	}
	var err error
	if d.Offsets, err = c.Alloc(8*int64(g.N+1), "CSR offsets"); err == nil {
		err = c.ShareInt64ToDevice(d.Offsets, g.Offsets)
	}
	if err == nil {
		if d.Targets, err = c.Alloc(4*m, "CSR targets"); err == nil {
			err = c.ShareInt32ToDevice(d.Targets, g.Targets)
		}
	}
	if err == nil {
		if d.Weights, err = c.Alloc(4*m, "CSR weights"); err == nil {
			err = c.ShareInt32ToDevice(d.Weights, g.Weights)
		}
	}
	if err != nil {
		return nil, errors.Join(err, d.Free(c))
	}
	return d, nil
}

// Free releases the device buffers.
func (d *CSR) Free(c *device.Ctx) error {
	var first error
	for _, b := range []*device.Buffer{&d.Offsets, &d.Targets, &d.Weights} {
		if err := c.Free(b); err != nil && first == nil {
			first = err
		}
	}
	return first
}
