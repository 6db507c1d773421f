package snap

import (
	"math"
	"slices"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/hugepages"
	"github.com/pathflow/pathflow/internal/parallel"
)

// fanout is how many entries each node of the segment tree covers: small
// enough that a node's boxes fit a few cache lines, large enough to keep
// the tree shallow (five levels for Delaware's 330,000 segments).
const fanout = 16

// box is an axis-aligned rectangle in degrees.
type box struct {
	minLon, minLat, maxLon, maxLat float64
}

// grow widens b to cover o.
func (b *box) grow(o box) {
	b.minLon, b.minLat = min(b.minLon, o.minLon), min(b.minLat, o.minLat)
	b.maxLon, b.maxLat = max(b.maxLon, o.maxLon), max(b.maxLat, o.maxLat)
}

// emptyBox covers nothing; growing it by a box gives that box.
var emptyBox = box{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}

// segmentTree is a static R-tree packed in Hilbert order: the segments
// sorted by the Hilbert index of their centres, then runs of fanout
// consecutive entries boxed into the nodes of the level above, up to a
// single root. Being built once from all segments, it needs no node
// splitting, no pointers and no balancing, and its nodes overlap little.
type segmentTree struct {
	// segments are the first points of the segments, in Hilbert order,
	// and ends their end points: a leaf's are read together, from a few
	// cache lines, rather than from wherever its stretches lie.
	segments []int32
	ends     []segmentEnds
	// levels[0] boxes runs of fanout segments; levels[k] boxes runs of
	// fanout nodes of levels[k-1]; the last level holds the root alone.
	levels [][]box
}

// segmentEnds are the two ends of a segment in degrees.
type segmentEnds struct {
	aLon, aLat, bLon, bLat float64
}

// buildSegmentTree packs the segments starting at the given points of ix
// (each running from p to p+1) into a tree, on workers goroutines.
// O(S log S) for S segments (the sort).
func buildSegmentTree(ix *Index, segments []int32, workers int) segmentTree {
	if len(segments) == 0 {
		return segmentTree{}
	}
	bounds := emptyBox
	for _, p := range segments {
		bounds.grow(ix.segmentBox(p))
	}
	// The curve position in the high half, the point in the low: one
	// integer sort orders by position, then by point.
	order := hugepages.Make[uint64](len(segments))
	parallel.Chunks(len(segments), workers, 1<<14, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			p := segments[i]
			a, b := &ix.points[p], &ix.points[p+1]
			order[i] = uint64(bounds.hilbert((a.lon+b.lon)/2, (a.lat+b.lat)/2, 16))<<32 | uint64(p)
		}
	})
	slices.Sort(order)
	t := segmentTree{segments: hugepages.Make[int32](len(order)), ends: hugepages.Make[segmentEnds](len(order))}
	for i, o := range order {
		p := int32(uint32(o))
		t.segments[i] = p
		t.ends[i] = ix.segmentEnds(p)
	}
	leaves := make([]box, (len(segments)+fanout-1)/fanout)
	parallel.Chunks(len(leaves), workers, 1<<10, func(_, lo, hi int) {
		for j := lo; j < hi; j++ {
			b := emptyBox
			for _, p := range t.segments[j*fanout : min((j+1)*fanout, len(t.segments))] {
				b.grow(ix.segmentBox(p))
			}
			leaves[j] = b
		}
	})
	t.levels = append(t.levels, leaves)
	for below := leaves; len(below) > 1; {
		above := make([]box, (len(below)+fanout-1)/fanout)
		for j := range above {
			b := emptyBox
			for _, c := range below[j*fanout : min((j+1)*fanout, len(below))] {
				b.grow(c)
			}
			above[j] = b
		}
		t.levels = append(t.levels, above)
		below = above
	}
	return t
}

// segmentBox is the box of the segment from point p to p+1.
func (ix *Index) segmentBox(p int32) box {
	a, b := &ix.points[p], &ix.points[p+1]
	return box{min(a.lon, b.lon), min(a.lat, b.lat), max(a.lon, b.lon), max(a.lat, b.lat)}
}

// segmentEnds are the ends of the segment from point p to p+1.
func (ix *Index) segmentEnds(p int32) segmentEnds {
	a, b := &ix.points[p], &ix.points[p+1]
	return segmentEnds{a.lon, a.lat, b.lon, b.lat}
}

// hilbert is the position of (lon, lat) along the Hilbert curve through
// a 2^bits x 2^bits grid over b (bits <= 16); points outside b count as
// on its edge.
func (b box) hilbert(lon, lat float64, bits uint) uint32 {
	return hilbertIndex(gridCell(lon, b.minLon, b.maxLon, bits), gridCell(lat, b.minLat, b.maxLat, bits), bits)
}

// gridCell is the cell of v among 2^bits equal cells over lo..hi, values
// outside (and NaN) clamped to the first or last cell.
func gridCell(v, lo, hi float64, bits uint) uint32 {
	last := float64(uint32(1)<<bits - 1)
	c := (v - lo) * last / max(hi-lo, 1e-9)
	if !(c > 0) { // NaN too
		return 0
	}
	return uint32(min(c, last))
}

// degrees converts a stored coordinate to degrees, exactly as
// graph.Vertices' Lon and Lat do.
func degrees(units int32) float64 { return float64(units) / graph.UnitsPerDegree }

// morton is the position of (lon, lat) along the Z-order curve through a
// 2^bits x 2^bits grid over b (bits <= 16), clamped as hilbert is: a
// coarser order than Hilbert's that interleaves bits without branches.
func (b box) morton(lon, lat float64, bits uint) uint32 {
	return spreadBits(gridCell(lon, b.minLon, b.maxLon, bits))<<1 | spreadBits(gridCell(lat, b.minLat, b.maxLat, bits))
}

// spreadBits moves bit k of x (< 2^16) to bit 2k.
func spreadBits(x uint32) uint32 {
	x = (x | x<<8) & 0x00ff00ff
	x = (x | x<<4) & 0x0f0f0f0f
	x = (x | x<<2) & 0x33333333
	return (x | x<<1) & 0x55555555
}

// hilbertIndex is the position of cell (x, y) of a 2^bits x 2^bits grid
// along the Hilbert curve that fills it.
func hilbertIndex(x, y uint32, bits uint) uint32 {
	var d uint32
	for s := uint32(1) << (bits - 1); s > 0; s >>= 1 {
		var rx, ry uint32
		if x&s != 0 {
			rx = 1
		}
		if y&s != 0 {
			ry = 1
		}
		d += s * s * ((3 * rx) ^ ry)
		if ry == 0 {
			if rx == 1 {
				x, y = s-1-x, s-1-y
			}
			x, y = y, x
		}
	}
	return d
}

// nearest returns the first point of the segment nearest to f's centre
// in f's projection, and the squared projected distance to it; of equally
// near segments, the lowest-numbered. It starts from the best segment
// given (first point best, squared distance bestDist2; -1 and the bound
// when none), so it considers only segments at most that far, and
// returns -1 when there is none.
//
// Depth-first branch and bound: at each node the children whose boxes lie
// no farther than the best segment found so far are visited nearest
// first, and a child whose box has fallen beyond the best by the time its
// turn comes is skipped. The box distance is a lower bound on that of
// every segment inside, so nothing nearer is missed. O(log S) nodes for a
// point among roads.
func (t *segmentTree) nearest(f frame, best int32, bestDist2 float64) (int32, float64) {
	if len(t.levels) == 0 {
		return best, bestDist2
	}
	top := len(t.levels) - 1
	root := t.levels[top][0]
	if f.boxDistance2(root.minLon, root.minLat, root.maxLon, root.maxLat) > bestDist2 {
		return best, bestDist2
	}
	t.visit(f, top, 0, &best, &bestDist2)
	return best, bestDist2
}

// visit searches node index of levels[level] for a segment nearer than
// *best, updating it.
func (t *segmentTree) visit(f frame, level, index int, best *int32, bestDist2 *float64) {
	lo := index * fanout
	if level == 0 {
		*best, *bestDist2 = t.nearestInLeaf(f, index, *best, *bestDist2)
		return
	}
	children := t.levels[level-1]
	hi := min(lo+fanout, len(children))
	// The children in reach, by distance (insertion sort: a handful).
	var near [fanout]struct {
		dist2 float64
		child int
	}
	n := 0
	for c := lo; c < hi; c++ {
		b := &children[c]
		d2 := f.boxDistance2(b.minLon, b.minLat, b.maxLon, b.maxLat)
		if d2 > *bestDist2 {
			continue
		}
		k := n
		for ; k > 0 && near[k-1].dist2 > d2; k-- {
			near[k] = near[k-1]
		}
		near[k].dist2, near[k].child = d2, c
		n++
	}
	for _, c := range near[:n] {
		if c.dist2 > *bestDist2 {
			break
		}
		t.visit(f, level-1, c.child, best, bestDist2)
	}
}

// nearestInLeaf returns the nearer of the given best segment (first
// point best, squared distance bestDist2) and the segments of leaf, with
// nearest's tie rule.
func (t *segmentTree) nearestInLeaf(f frame, leaf int, best int32, bestDist2 float64) (int32, float64) {
	lo := leaf * fanout
	hi := min(lo+fanout, len(t.segments))
	for k, e := range t.ends[lo:hi] {
		ax, ay, bx, by := e.aLon, e.aLat, e.bLon, e.bLat
		// The segment's box first: most lie farther than the best.
		if f.segmentBoxDistance2(ax, ay, bx, by) > bestDist2 {
			continue
		}
		_, d2 := f.project(ax, ay, bx, by)
		if p := t.segments[lo+k]; d2 < bestDist2 || (d2 == bestDist2 && (best < 0 || p < best)) {
			best, bestDist2 = p, d2
		}
	}
	return best, bestDist2
}
