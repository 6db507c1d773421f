//go:build cuda

package devicegraph

import (
	"errors"

	"github.com/pathflow/pathflow/internal/gpu/device"
	"github.com/pathflow/pathflow/kernels"
)

// prefixTile is the values one block of the prefix sum takes.
const prefixTile = prefixThreads * prefixItems

// inclusivePrefixSum replaces the first n int64 of values by their
// inclusive prefix sums, on the device: tile sums, a scan of those in one
// block, then each tile scanned from its offset (kernels/prefix_*.cu). O(n)
// work, three launches, one small temporary buffer.
func inclusivePrefixSum(c *device.Ctx, values device.Buffer, n int64) (err error) {
	if n <= 0 {
		return nil
	}
	tiles := (n + prefixTile - 1) / prefixTile
	sums, err := c.Alloc(8*tiles, "prefix sum tiles")
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, c.Free(&sums)) }()
	cfg := kernels.Config{Grid: kernels.Dim3{X: int(tiles)}, Block: kernels.Dim3{X: prefixThreads}}
	if err := c.Kernels().PrefixTileSums(cfg, values.Ptr, n, sums.Ptr); err != nil {
		return err
	}
	one := kernels.Config{Grid: kernels.Dim3{X: 1}, Block: kernels.Dim3{X: prefixThreads}}
	if err := c.Kernels().PrefixScanSums(one, sums.Ptr, tiles); err != nil {
		return err
	}
	return c.Kernels().PrefixApply(cfg, values.Ptr, n, sums.Ptr)
}
