package results

import (
	"math/bits"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
)

// The writers' bulk path turns a block's cells into an Arrow column: the
// values, 0 where a cell has none, and a validity bitmap. A cell at a time
// with a branch and a read-modify-write of its bitmap byte, that took a
// quarter of the CPU of Gnutella30's all pairs with parents (most cells
// without a path, the rest scattered). Here the bitmap is built a byte at
// a time from eight cells, without branches, between a head and a tail
// that reach the bitmap's byte boundaries a cell at a time.

// widenValid copies the narrow distances src into dst (0 where there is
// no path: graph.Inf32 or above), sets bit at+k of valid for each cell k
// with a path (the bits of [at, at+len(src)) must be clear), and returns
// how many cells have one.
func widenValid(dst []int64, valid []byte, at int, src []int32) (present int) {
	dst = dst[:len(src)]
	k := 0
	one := func(k int) {
		if v := src[k]; v < graph.Inf32 {
			dst[k] = int64(v)
			valid[(at+k)>>3] |= 1 << ((at + k) & 7)
			present++
		} else {
			dst[k] = 0
		}
	}
	for ; k < len(src) && (at+k)&7 != 0; k++ {
		one(k)
	}
	for ; k+8 <= len(src); k += 8 {
		s, d := src[k:k+8:k+8], dst[k:k+8:k+8]
		var b uint
		for i := range 8 {
			m := present32(s[i] < graph.Inf32)
			b |= m << i
			d[i] = int64(s[i]) & -int64(m)
		}
		valid[(at+k)>>3] = byte(b)
		present += bits.OnesCount8(byte(b))
	}
	for ; k < len(src); k++ {
		one(k)
	}
	return present
}

// copyValid copies src into dst (0 where a cell is absent), sets bit
// at+k of valid for each cell k that is not absent (the bits of
// [at, at+len(src)) must be clear), and returns how many are not.
func copyValid[T int32 | int64](dst []T, valid []byte, at int, src []T, absent T) (present int) {
	dst = dst[:len(src)]
	k := 0
	one := func(k int) {
		if v := src[k]; v != absent {
			dst[k] = v
			valid[(at+k)>>3] |= 1 << ((at + k) & 7)
			present++
		} else {
			dst[k] = 0
		}
	}
	for ; k < len(src) && (at+k)&7 != 0; k++ {
		one(k)
	}
	for ; k+8 <= len(src); k += 8 {
		s, d := src[k:k+8:k+8], dst[k:k+8:k+8]
		var b uint
		for i := range 8 {
			m := present32(s[i] != absent)
			b |= m << i
			d[i] = s[i] & -T(m)
		}
		valid[(at+k)>>3] = byte(b)
		present += bits.OnesCount8(byte(b))
	}
	for ; k < len(src); k++ {
		one(k)
	}
	return present
}

// present32 is 1 for true and 0 for false, which the compiler makes a
// flag set rather than a branch.
func present32(ok bool) uint {
	if ok {
		return 1
	}
	return 0
}

// FillParents copies parents src into dst for a column writer: the
// parent, with bit at+k of valid set, where there is one, and 0 with the
// bit left clear where there is none (paths.NoParent). It returns the
// number of cells without one. O(len(src)).
func FillParents(dst []int32, valid []byte, at int, src []int32) (missing int) {
	return len(src) - copyValid(dst, valid, at, src, paths.NoParent)
}
