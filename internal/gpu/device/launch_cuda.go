//go:build cuda

package device

import "github.com/pathflow/pathflow/kernels"

// Launch shapes: those that depend on the device (its multiprocessor
// count) are Device's methods, those that depend on the sizes alone plain
// functions. The grid-stride bound, kernels.StrideBlocksPerSM, stays with
// the kernels written for it.

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

// Cells returns a 2-D launch with one thread per cell of an n x n matrix,
// in bx x by blocks.
func Cells(n int64, bx, by int) kernels.Config {
	return kernels.Config{
		Grid:  kernels.Dim3{X: int((n + int64(bx) - 1) / int64(bx)), Y: int((n + int64(by) - 1) / int64(by))},
		Block: kernels.Dim3{X: bx, Y: by},
	}
}

// Square returns a grid of x by y blocks of side x side threads.
func Square(x, y int64, side int) kernels.Config {
	return kernels.Config{Grid: kernels.Dim3{X: int(x), Y: int(y)}, Block: kernels.Dim3{X: side, Y: side}}
}
