//go:build cuda

package device

import (
	"errors"
	"fmt"

	"gorgonia.org/cu"
)

// ReverseCSR builds the reverse of fwd on the device: row v lists the arcs
// entering v, as (source, weight). The arcs of a row come in no particular
// order (see kernels/csr_reverse_scatter.cu). It counts in-degrees with
// atomics, scans them (InclusivePrefixSum) and scatters the arcs: O(n + m)
// device work and no copy of the graph, against a host counting sort of
// every arc and its upload. The caller frees the result with Free.
func (c *Ctx) ReverseCSR(fwd *DeviceCSR) (*DeviceCSR, error) {
	n, m := int64(fwd.N), fwd.M
	rev := &DeviceCSR{N: fwd.N, M: m}
	if err := c.Reserve(8*(n+1)+8*m+8*max(n, 1), fmt.Sprintf("reverse graph (%d vertices, %d arcs)", n, m)); err != nil {
		return nil, err
	}
	var cursor Buffer
	err := c.reverseInto(fwd, rev, &cursor)
	err = errors.Join(err, c.Free(&cursor))
	if err != nil {
		return nil, errors.Join(err, rev.Free(c))
	}
	return rev, nil
}

// reverseInto allocates rev's buffers and cursor (the scatter's next free
// position per row) and fills rev.
func (c *Ctx) reverseInto(fwd, rev *DeviceCSR, cursor *Buffer) error {
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
		if err := c.kernels.CSRInDegree(c.dev.Linear(m, block, true), fwd.Targets.Ptr, m, rev.Offsets.Ptr); err != nil {
			return err
		}
	}
	if err := c.InclusivePrefixSum(rev.Offsets, n+1); err != nil {
		return err
	}
	last := make([]int64, 1)
	if err := c.CopyInt64FromDevice(last, Buffer{Ptr: rev.Offsets.Ptr + cu.DevicePtr(8*n), Bytes: 8}); err != nil {
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
	return c.kernels.CSRReverseScatter(c.dev.Linear(n, block, true), fwd.Offsets.Ptr, fwd.Targets.Ptr, fwd.Weights.Ptr,
		n, cursor.Ptr, rev.Targets.Ptr, rev.Weights.Ptr)
}
