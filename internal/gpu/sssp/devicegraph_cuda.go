//go:build cuda

package sssp

import (
	"github.com/pathflow/pathflow/internal/gpu/device"
	"github.com/pathflow/pathflow/internal/gpu/devicegraph"
	"github.com/pathflow/pathflow/internal/graph"
)

// DeviceGraph is a CSR graph uploaded once for single-source searches and
// shared by every variant and every batch of sources: the forward arcs,
// and the reverse arcs for the parent pass, uploaded on first use.
type DeviceGraph struct {
	forward *devicegraph.CSR
	reverse *devicegraph.CSR
}

// uploadGraph copies g's arcs to the device. The caller frees the result
// with Free on the same device.
func uploadGraph(c *device.Ctx, g *graph.CSR) (*DeviceGraph, error) {
	fwd, err := devicegraph.UploadCSR(c, g)
	if err != nil {
		return nil, err
	}
	return &DeviceGraph{forward: fwd}, nil
}

// Forward is the graph's arcs.
func (g *DeviceGraph) Forward() *devicegraph.CSR { return g.forward }

// Reverse returns the reversed arcs (row v lists the arcs entering v, in
// no particular order), building them on the device on the first call.
func (g *DeviceGraph) Reverse(c *device.Ctx) (*devicegraph.CSR, error) {
	if g.reverse == nil {
		rev, err := devicegraph.Reverse(c, g.forward)
		if err != nil {
			return nil, err
		}
		g.reverse = rev
	}
	return g.reverse, nil
}

// Free releases the device buffers.
func (g *DeviceGraph) Free(c *device.Ctx) error {
	var first error
	for _, d := range []**devicegraph.CSR{&g.forward, &g.reverse} {
		if *d == nil {
			continue
		}
		if err := (*d).Free(c); err != nil && first == nil {
			first = err
		}
		*d = nil
	}
	return first
}

// bufferAlloc is one buffer of allocBuffers: where it goes, its size and
// what it holds.
type bufferAlloc struct {
	buf   *device.Buffer
	bytes int64
	what  string
}

// allocBuffers allocates the buffers in order, each named prefix + what in
// errors. On an error the ones already allocated stay set, for the
// caller's free.
func allocBuffers(c *device.Ctx, prefix string, bufs []bufferAlloc) error {
	for _, a := range bufs {
		var err error
		if *a.buf, err = c.Alloc(a.bytes, prefix+a.what); err != nil {
			return err
		}
	}
	return nil
}
