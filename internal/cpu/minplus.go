package cpu

// The min-plus tile kernels of the blocked Floyd-Warshall. A tile is bs x bs
// entries of a row-major matrix with the given stride; c, a and b start at
// their tile's first entry, and pc, pb are the matching predecessor tiles
// (nil without predecessors). Each kernel applies, for every k < bs,
//
//	C[i][j] = min(C[i][j], A[i][k] + B[k][j])
//
// and on an improvement sets PC[i][j] = PB[k][j]: the vertex before j on
// the path through k is the one before j on the path from k.
//
// Infinity is inf; inf+inf fits the type. An improvement is rare once the
// first rounds have run (each entry improves O(log n) times in n rounds),
// so the kernels test-and-branch instead of storing a min every time: the
// branch is well predicted and most updates cost two loads, an add and a
// compare. The rare branch also holds the guards negative weights need,
// which cost nothing on graphs without them: a sum with an infinite operand
// is no path (with non-negative values it can never win anyway), and sums
// are clamped at -inf so a negative cycle cannot run the values past the
// type's range before it shows on the diagonal.

// relaxTileInPlace is the kernel of phases 1 and 2, where the tiles may be
// the same (the diagonal tile, and the row and column panels that use it):
// k must be the outer loop so that row k and column k are final for k's
// step. O(bs^3).
func relaxTileInPlace[D distance](c, a, b []D, pc, pb []int32, stride, bs int, inf D) {
	for k := range bs {
		brow := b[k*stride : k*stride+bs]
		var pbrow []int32
		if pb != nil {
			pbrow = pb[k*stride : k*stride+bs]
		}
		for i := range bs {
			x := a[i*stride+k]
			if x >= inf {
				continue
			}
			crow := c[i*stride : i*stride+bs]
			crow = crow[:len(brow)]
			for j, y := range brow {
				if s := x + y; s < crow[j] && y < inf {
					crow[j] = max(s, -inf)
					if pc != nil {
						pc[i*stride+j] = pbrow[j]
					}
				}
			}
		}
	}
}

// relaxTileIndependent is the kernel of phase 3, where C is neither A nor
// B, so the loop order is free: i outer, then k, then j, two rows of C at a
// time so each load of B[k][j] serves two updates. O(bs^3).
func relaxTileIndependent[D distance](c, a, b []D, pc, pb []int32, stride, bs int, inf D) {
	i := 0
	for ; i+1 < bs; i += 2 {
		c0 := c[i*stride : i*stride+bs]
		c1 := c[(i+1)*stride : (i+1)*stride+bs]
		c1 = c1[:len(c0)]
		a0 := a[i*stride : i*stride+bs]
		a1 := a[(i+1)*stride : (i+1)*stride+bs]
		a1 = a1[:len(a0)]
		for k, x0 := range a0 {
			x1 := a1[k]
			if x0 >= inf && x1 >= inf {
				continue
			}
			brow := b[k*stride : k*stride+bs]
			brow = brow[:len(c0)]
			for j, y := range brow {
				if s := x0 + y; s < c0[j] && x0 < inf && y < inf {
					c0[j] = max(s, -inf)
					if pc != nil {
						pc[i*stride+j] = pb[k*stride+j]
					}
				}
				if s := x1 + y; s < c1[j] && x1 < inf && y < inf {
					c1[j] = max(s, -inf)
					if pc != nil {
						pc[(i+1)*stride+j] = pb[k*stride+j]
					}
				}
			}
		}
	}
	if i < bs { // the last row of an odd tile
		c0 := c[i*stride : i*stride+bs]
		for k, x0 := range a[i*stride : i*stride+bs] {
			if x0 >= inf {
				continue
			}
			brow := b[k*stride : k*stride+bs]
			brow = brow[:len(c0)]
			for j, y := range brow {
				if s := x0 + y; s < c0[j] && y < inf {
					c0[j] = max(s, -inf)
					if pc != nil {
						pc[i*stride+j] = pb[k*stride+j]
					}
				}
			}
		}
	}
}
