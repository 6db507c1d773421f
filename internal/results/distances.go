package results

import (
	"encoding/binary"
	"iter"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
)

// Distances is a block's distance column as its consumers read it. The
// block keeps distances in the width its producer computes them in (int32
// when the graph's distances provably fit, int64 otherwise), so a row of
// 24M vertices leaves the device and reaches the writers at 4 bytes a cell,
// with no widened copy; Distances hides that width behind one rule: a cell
// either has a path, and At returns its length and true, or it has none,
// and At returns false. No consumer tests for a marker value.
//
// Producers write the native slices (Rows.Dist32, graph.Inf32 or above for
// no path; Rows.Dist64, paths.Unreachable for no path); those markers end
// here.
type Distances struct {
	narrow []int32
	wide   []int64
}

// Distances returns a view of the block's distance column.
func (r *Rows) Distances() Distances { return Distances{narrow: r.Dist32, wide: r.Dist64} }

// Len is the number of cells.
func (d Distances) Len() int {
	if d.narrow != nil {
		return len(d.narrow)
	}
	return len(d.wide)
}

// At returns the distance of cell k and whether there is a path at all.
// O(1).
func (d Distances) At(k int) (int64, bool) {
	if d.narrow != nil {
		v := d.narrow[k]
		return int64(v), v < graph.Inf32
	}
	v := d.wide[k]
	return v, v != paths.Unreachable
}

// Within returns the distance of cell k and whether the cell is kept under
// the cutoff maxDistance: it has a path no longer than maxDistance, or any
// path when maxDistance is NoCutoff. O(1).
func (d Distances) Within(k int, maxDistance int64) (int64, bool) {
	v, ok := d.At(k)
	return v, ok && (maxDistance == NoCutoff || v <= maxDistance)
}

// Weight returns the distance of cell k, or paths.Unreachable when there
// is no path: the convention of paths.Tree and of WeightTo. O(1).
func (d Distances) Weight(k int) int64 {
	if v, ok := d.At(k); ok {
		return v
	}
	return paths.Unreachable
}

// Fill copies cells lo..hi-1 into dst[0:hi-lo] for a column writer: the
// distance where there is a path, with bit at+k of valid set (bits least
// significant first, as Arrow validity bitmaps are), and 0 with the bit
// left clear where there is none. It returns the number of cells without
// a path. One tight loop per native width: the bulk path of the writers.
// O(hi-lo).
func (d Distances) Fill(dst []int64, valid []byte, at, lo, hi int) (missing int) {
	dst = dst[:hi-lo]
	if d.narrow != nil {
		reached := 0
		for k, v := range d.narrow[lo:hi] {
			if v < graph.Inf32 {
				dst[k] = int64(v)
				setBit(valid, at+k)
				reached++
			} else {
				dst[k] = 0
			}
		}
		return hi - lo - reached
	}
	copy(dst, d.wide[lo:hi])
	for k, v := range d.wide[lo:hi] {
		if v != paths.Unreachable {
			setBit(valid, at+k)
		} else {
			dst[k] = 0
			missing++
		}
	}
	return missing
}

// setBit sets bit j of bits, least significant first.
func setBit(bits []byte, j int) { bits[j>>3] |= 1 << (j & 7) }

// PutInt32LE writes cells lo..hi-1 into dst as little-endian int32, 4
// bytes a cell: none where there is no path, the distance where it lies in
// [-none, none). It returns the index (lo..hi-1) of the first cell with a
// distance outside that range, or -1. For int32 outputs, whose own marker
// for no path is none. O(hi-lo).
func (d Distances) PutInt32LE(dst []byte, lo, hi int, none int32) int {
	dst = dst[:4*(hi-lo)]
	if d.narrow != nil {
		for i, v := range d.narrow[lo:hi] {
			if v >= graph.Inf32 {
				v = none
			} else if v < -none || v >= none {
				return lo + i
			}
			binary.LittleEndian.PutUint32(dst[4*i:], uint32(v))
		}
		return -1
	}
	for i, v := range d.wide[lo:hi] {
		if v == paths.Unreachable {
			v = int64(none)
		} else if v >= int64(none) || v < -int64(none) {
			return lo + i
		}
		binary.LittleEndian.PutUint32(dst[4*i:], uint32(int32(v)))
	}
	return -1
}

// Slice returns the view of cells lo..hi-1, renumbered from 0: a row's
// cells (see Rows.Span), for a loop over one row. O(1).
func (d Distances) Slice(lo, hi int) Distances {
	if d.narrow != nil {
		return Distances{narrow: d.narrow[lo:hi:hi]}
	}
	return Distances{wide: d.wide[lo:hi:hi]}
}

// Kept yields, in order, each cell of the view that has a path within
// maxDistance (any path when maxDistance is NoCutoff), as its index in the
// view and its distance: the filter of every consumer that drops what the
// cutoff drops, one tight loop per native width.
func (d Distances) Kept(maxDistance int64) iter.Seq2[int, int64] {
	return func(yield func(int, int64) bool) {
		if d.narrow != nil {
			for j, v := range d.narrow {
				if v < graph.Inf32 && (maxDistance == NoCutoff || int64(v) <= maxDistance) && !yield(j, int64(v)) {
					return
				}
			}
			return
		}
		for j, v := range d.wide {
			if v != paths.Unreachable && (maxDistance == NoCutoff || v <= maxDistance) && !yield(j, v) {
				return
			}
		}
	}
}
