//go:build cuda

package device

import (
	"errors"
	"fmt"

	"github.com/pathflow/pathflow/internal/graph"
)

// DeviceEdgeList is an arc list on the device: Src, Dst and Weight hold M
// int32 each, in the host list's order.
type DeviceEdgeList struct {
	N                int32
	M                int64
	Src, Dst, Weight Buffer
}

// UploadEdgeList copies e to the device. The caller frees the result with
// Free on the same Ctx's device.
func (c *Ctx) UploadEdgeList(e *graph.EdgeList) (*DeviceEdgeList, error) {
	m := int64(e.M())
	g := &DeviceEdgeList{N: e.N, M: m}
	if err := c.Reserve(3*4*m, fmt.Sprintf("edge list (%d arcs)", m)); err != nil {
		return nil, err
	}
	for _, part := range []struct {
		buf  *Buffer
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
func (g *DeviceEdgeList) Free(c *Ctx) error {
	var first error
	for _, b := range []*Buffer{&g.Src, &g.Dst, &g.Weight} {
		if err := c.Free(b); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// DeviceCSR is a CSR graph on the device: Offsets holds N+1 int64, Targets
// and Weights M int32 each (see graph.CSR).
type DeviceCSR struct {
	N                         int32
	M                         int64
	Offsets, Targets, Weights Buffer
}

// UploadCSR copies g to the device. The caller frees the result with Free.
func (c *Ctx) UploadCSR(g *graph.CSR) (*DeviceCSR, error) {
	m := int64(g.M())
	d := &DeviceCSR{N: g.N, M: m}
	if err := c.Reserve(8*int64(g.N+1)+8*m, fmt.Sprintf("CSR graph (%d vertices, %d arcs)", g.N, m)); err != nil {
		return nil, err
	}
	var err error
	if d.Offsets, err = c.Alloc(8*int64(g.N+1), "CSR offsets"); err == nil {
		err = c.CopyInt64ToDevice(d.Offsets, g.Offsets)
	}
	if err == nil {
		if d.Targets, err = c.Alloc(4*m, "CSR targets"); err == nil {
			err = c.CopyInt32ToDevice(d.Targets, g.Targets)
		}
	}
	if err == nil {
		if d.Weights, err = c.Alloc(4*m, "CSR weights"); err == nil {
			err = c.CopyInt32ToDevice(d.Weights, g.Weights)
		}
	}
	if err != nil {
		return nil, errors.Join(err, d.Free(c))
	}
	return d, nil
}

// Free releases the device buffers.
func (d *DeviceCSR) Free(c *Ctx) error {
	var first error
	for _, b := range []*Buffer{&d.Offsets, &d.Targets, &d.Weights} {
		if err := c.Free(b); err != nil && first == nil {
			first = err
		}
	}
	return first
}
