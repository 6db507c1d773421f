//go:build cuda

package devicegraph

import (
	"errors"
	"fmt"

	"gorgonia.org/cu"

	"github.com/pathflow/pathflow/internal/gpu/device"
)

// Reverse builds the reverse of fwd on the device: row v lists the arcs
// entering v, as (source, weight). The arcs of a row come in no particular
// order (see kernels/csr_reverse_scatter.cu). It counts in-degrees with
// atomics, scans them (inclusivePrefixSum) and scatters the arcs: O(n + m)
// device work and no copy of the graph, against a host counting sort of
// every arc and its upload. The caller frees the result with Free.
func Reverse(c *device.Ctx, fwd *CSR) (*CSR, error) {
	n, m := int64(fwd.N), fwd.M
	rev := &CSR{N: fwd.N, M: m}
	if err := c.Reserve(8*(n+1)+8*m+8*max(n, 1), fmt.Sprintf("reverse graph (%d vertices, %d arcs)", n, m)); err != nil {
		return nil, err
	}
	var cursor device.Buffer
	err := reverseInto(c, fwd, rev, &cursor)
	err = errors.Join(err, c.Free(&cursor))
	if err != nil {
		return nil, errors.Join(err, rev.Free(c))
	}
	return rev, nil
}

// reverseInto allocates rev's buffers and cursor (the scatter's next free
// position per row) and fills rev.
func reverseInto(c *device.Ctx, fwd, rev *CSR, cursor *device.Buffer) error {
	n, m := int64(fwd.N), fwd.M
	var err error
	if rev.Offsets, err = c.Alloc(8*(n+1), "reverse offsets"); err != nil {
		return err
	}
	if err := c.FillInt32(rev.Offsets, 0); err != nil {
		return err
	}
	const block = 256
	if m > 0 {
		if err := c.Kernels().CSRInDegree(c.Device().Linear(m, block, true), fwd.Targets.Ptr, m, rev.Offsets.Ptr); err != nil {
			return err
		}
	}
	if err := inclusivePrefixSum(c, rev.Offsets, n+1); err != nil {
		return err
	}
	last := make([]int64, 1)
	if err := c.CopyInt64FromDevice(last, device.Buffer{Ptr: rev.Offsets.Ptr + cu.DevicePtr(8*n), Bytes: 8}); err != nil {
		return err
	}
	if last[0] != m {
		return fmt.Errorf("gpu: reverse graph counted %d arcs of %d", last[0], m)
	}
	if rev.Targets, err = c.Alloc(4*m, "reverse sources"); err != nil {
		return err
	}
	if rev.Weights, err = c.Alloc(4*m, "reverse weights"); err != nil {
		return err
	}
	if n == 0 || m == 0 {
		return nil
	}
	if *cursor, err = c.Alloc(8*n, "reverse cursors"); err != nil {
		return err
	}
	if err := c.CopyOnDevice(*cursor, rev.Offsets, 8*n); err != nil {
		return err
	}
	return c.Kernels().CSRReverseScatter(c.Device().Linear(n, block, true), fwd.Offsets.Ptr, fwd.Targets.Ptr, fwd.Weights.Ptr,
		n, cursor.Ptr, rev.Targets.Ptr, rev.Weights.Ptr)
}
