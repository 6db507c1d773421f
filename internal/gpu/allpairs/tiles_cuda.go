//go:build cuda

package allpairs

import (
	"gorgonia.org/cu"

	"github.com/pathflow/pathflow/internal/gpu/device"
	"github.com/pathflow/pathflow/kernels"
)

// tileOps launches, on one stream, the two kernels that the row-slab and
// out-of-core schedules build every round from: the closure of a diagonal
// tile and the min-plus product of a tile column strip and a tile row
// strip. Matrices are addressed by their first cell and row pitch (in
// int32), so a strip may lie in another buffer than the tiles it relaxes.
type tileOps struct {
	c *device.Ctx
	s *device.Stream
	// negative receives the first vertex whose diagonal turns negative.
	negative cu.DevicePtr
}

// cell is the address of cell (row, col) of the matrix at m.
func cell(m cu.DevicePtr, pitch, row, col int64) cu.DevicePtr {
	return m + cu.DevicePtr((row*pitch+col)*4)
}

// closeTile enqueues phase 1 on the diagonal tile at tile, whose first
// vertex is vertex0.
func (o tileOps) closeTile(tile cu.DevicePtr, pitch, vertex0 int64) error {
	return o.c.Kernels().FloydWarshallTileClose(onStream(device.Square(1, 1, 32), o.s), tile, pitch, vertex0, o.negative)
}

// minPlus enqueues c = min(c, a (x) b) over rowTiles x colTiles tiles of
// c but tile row skipRow and tile column skipCol (-1: none), a being the
// pivots' column strip (rowTiles tiles tall) and b their row strip
// (colTiles tiles wide). See kernels/floyd_warshall_min_plus.cu for what
// may alias.
func (o tileOps) minPlus(c cu.DevicePtr, cPitch int64, a cu.DevicePtr, aPitch int64, b cu.DevicePtr, bPitch int64,
	rowTiles, colTiles, skipRow, skipCol int64) error {
	if skipRow >= 0 {
		rowTiles--
	}
	if skipCol >= 0 {
		colTiles--
	}
	if rowTiles <= 0 || colTiles <= 0 {
		return nil
	}
	cfg := onStream(kernels.Config{Grid: kernels.Dim3{X: int(colTiles), Y: int(rowTiles)}, Block: kernels.Dim3{X: 256}}, o.s)
	return o.c.Kernels().FloydWarshallMinPlus(cfg, c, cPitch, a, aPitch, b, bPitch, skipRow, skipCol)
}

// closeBlock enqueues the blocked Floyd-Warshall over the tiles x tiles
// block at m, whose first vertex is vertex0: per pivot tile q, its
// closure, then its row and column by the closed tile, then every other
// tile. Products through a closed tile are exact in one pass (a path
// through several of its pivots is one step through the closure), so the
// row and column need not walk the pivots one by one.
func (o tileOps) closeBlock(m cu.DevicePtr, pitch, tiles, vertex0 int64) error {
	const t = FastTile
	for q := range tiles {
		pivot := cell(m, pitch, q*t, q*t)
		row, col := cell(m, pitch, q*t, 0), cell(m, pitch, 0, q*t)
		if err := o.closeTile(pivot, pitch, vertex0+q*t); err != nil {
			return err
		}
		if err := o.minPlus(row, pitch, pivot, pitch, row, pitch, 1, tiles, -1, q); err != nil {
			return err
		}
		if err := o.minPlus(col, pitch, col, pitch, pivot, pitch, tiles, 1, q, -1); err != nil {
			return err
		}
		if err := o.minPlus(m, pitch, col, pitch, row, pitch, tiles, tiles, q, q); err != nil {
			return err
		}
	}
	return nil
}
