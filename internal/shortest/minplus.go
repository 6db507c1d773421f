package shortest

import "github.com/pathflow/pathflow/internal/paths"

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
// first rounds have run (about 1% of the n^3 updates on an Erdős–Rényi
// graph), so each kernel splits the j loop in two: a tight, read-only scan
// for the next improvement (the firstImprovement functions: per update a
// load, an add, a compare and a well-predicted branch, the load of B[k][j]
// shared by four rows in phase 3) and the rare update itself outside it.
// The scans are kept out of line because Go's register allocator, given
// the update code's live values as well, spills the scan's loop counter.
//
// The update holds the guards negative weights need, which cost nothing on
// graphs without them: a sum with an infinite operand is no path (with
// non-negative values it could never win anyway), and sums are clamped at
// -inf so that a negative cycle cannot run the values past the type's range
// before blockedFW sees it on the diagonal at the end of the round.

// relaxTileInPlace is the kernel of phases 1 and 2, where the tiles may be
// the same (the diagonal tile, and the row and column panels that use it):
// k must be the outer loop so that row k and column k are final for k's
// step. The scan re-reads memory after every update, so aliasing between C
// and B keeps the semantics of the plain sequential loop. O(bs^3).
func relaxTileInPlace[D paths.Distance](c, a, b []D, pc, pb []int32, stride, bs int, inf D) {
	for k := range bs {
		brow := b[k*stride : k*stride+bs]
		for i := range bs {
			x := a[i*stride+k]
			if x >= inf {
				continue
			}
			crow := c[i*stride : i*stride+bs]
			for j := 0; ; j++ {
				if j = firstImprovement1(crow, brow, x, j); j >= bs {
					break
				}
				if y := brow[j]; y < inf {
					crow[j] = max(x+y, -inf)
					if pc != nil {
						pc[i*stride+j] = pb[k*stride+j]
					}
				}
			}
		}
	}
}

// relaxTileIndependent is the kernel of phase 3, where C is neither A nor
// B, so the loop order is free: i outer, then k, then j, four rows of C at
// a time so each load of B[k][j] serves four updates; leftover rows go one
// at a time. O(bs^3).
func relaxTileIndependent[D paths.Distance](c, a, b []D, pc, pb []int32, stride, bs int, inf D) {
	i := 0
	for ; i+3 < bs; i += 4 {
		var rows [4][]D
		var xs [4][]D
		for r := range rows {
			rows[r] = c[(i+r)*stride : (i+r)*stride+bs]
			xs[r] = a[(i+r)*stride : (i+r)*stride+bs]
		}
		for k := range bs {
			x0, x1, x2, x3 := xs[0][k], xs[1][k], xs[2][k], xs[3][k]
			if x0 >= inf && x1 >= inf && x2 >= inf && x3 >= inf {
				continue
			}
			brow := b[k*stride : k*stride+bs]
			for j := 0; ; j++ {
				if j = firstImprovement4(&rows, brow, x0, x1, x2, x3, j); j >= bs {
					break
				}
				y := brow[j]
				if y >= inf {
					continue
				}
				for r, x := range [4]D{x0, x1, x2, x3} {
					if s := x + y; s < rows[r][j] && x < inf {
						rows[r][j] = max(s, -inf)
						if pc != nil {
							pc[(i+r)*stride+j] = pb[k*stride+j]
						}
					}
				}
			}
		}
	}
	for ; i < bs; i++ {
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

// firstImprovement4 returns the first j >= from where x_r + b[j] <
// c[r][j] for some row r, or len(b) when there is none.
//
//go:noinline
func firstImprovement4[D paths.Distance](c *[4][]D, b []D, x0, x1, x2, x3 D, from int) int {
	b = b[from:]
	c0 := c[0][from:][:len(b)]
	c1 := c[1][from:][:len(b)]
	c2 := c[2][from:][:len(b)]
	c3 := c[3][from:][:len(b)]
	for j, y := range b {
		if x0+y < c0[j] || x1+y < c1[j] || x2+y < c2[j] || x3+y < c3[j] {
			return from + j
		}
	}
	return from + len(b)
}

// firstImprovement1 returns the first j >= from with x + b[j] < c[j], or
// len(b) when there is none.
//
//go:noinline
func firstImprovement1[D paths.Distance](c, b []D, x D, from int) int {
	b = b[from:]
	c = c[from:][:len(b)]
	for j, y := range b {
		if x+y < c[j] {
			return from + j
		}
	}
	return from + len(b)
}
