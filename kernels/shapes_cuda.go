//go:build cuda

package kernels

// Launch shapes that depend on the sizes alone; those that depend on the
// device (its multiprocessor count) are device.Device's Linear and
// RowGrid in internal/gpu/device.

// StrideBlocksPerSM bounds grid-stride launches: enough blocks to fill
// every multiprocessor several times over, few enough that each thread
// loops.
const StrideBlocksPerSM = 16

// Cells returns a 2-D launch with one thread per cell of an n x n matrix,
// in bx x by blocks.
func Cells(n int64, bx, by int) Config {
	return Config{
		Grid:  Dim3{X: int((n + int64(bx) - 1) / int64(bx)), Y: int((n + int64(by) - 1) / int64(by))},
		Block: Dim3{X: bx, Y: by},
	}
}

// Square returns a grid of x by y blocks of side x side threads.
func Square(x, y int64, side int) Config {
	return Config{Grid: Dim3{X: int(x), Y: int(y)}, Block: Dim3{X: side, Y: side}}
}
