//go:build cuda

package device

import "github.com/pathflow/pathflow/kernels"

// Launch shapes that depend on the device; those that depend on the sizes
// alone are in package kernels (kernels.Cells, kernels.Square).

// Linear returns a 1-D launch of block threads covering n items, one per
// thread, capped for grid-stride kernels (capped == true) at
// kernels.StrideBlocksPerSM blocks per multiprocessor.
func (d *Device) Linear(n int64, block int, capped bool) kernels.Config {
	blocks := max((n+int64(block)-1)/int64(block), 1)
	if capped {
		blocks = min(blocks, int64(d.sms*kernels.StrideBlocksPerSM))
	}
	return kernels.Config{Grid: kernels.Dim3{X: int(blocks)}, Block: kernels.Dim3{X: block}}
}

// RowGrid returns a 2-D grid-stride launch over a rows x cols matrix: blockX
// threads along a row, one block row per matrix row up to the cap.
func (d *Device) RowGrid(rows, cols int64, blockX int) kernels.Config {
	x := min(max((cols+int64(blockX)-1)/int64(blockX), 1), 64)
	y := min(max(rows, 1), 65535)
	return kernels.Config{Grid: kernels.Dim3{X: int(x), Y: int(y)}, Block: kernels.Dim3{X: blockX}}
}
