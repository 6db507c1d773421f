package snap

import (
	"math"

	"github.com/pathflow/pathflow/internal/hugepages"
	"github.com/pathflow/pathflow/internal/parallel"
)

// segmentGrid buckets the segments into a uniform grid of cells over the
// network's extent, each cell listing every segment whose box (widened by
// gridMargin) meets it, with the segment's ends inline. A point among
// roads finds its nearest segment in its own cell and the ring around it,
// reading a few consecutive runs of entries, where the tree descends five
// levels of boxes that overlap; a search that the first rings do not
// settle goes on in the tree with the best segment found so far.
type segmentGrid struct {
	// minLon and minLat are the grid's south-west corner, cellLon and
	// cellLat a cell's sides, perLon and perLat their inverses, all in
	// degrees.
	minLon, minLat, cellLon, cellLat, perLon, perLat float64
	cols, rows                                       int
	// start[c] is cell c's first entry (cells row by row, len cols*rows+1).
	start   []int32
	entries []gridEntry
	// nearby[c] is a cell with entries among the nearest to cell c (c
	// itself when it has entries): a point that the rings do not settle
	// hands the nearest of its segments to the tree as the first
	// candidate, whose distance bounds the tree's search from the start.
	nearby []int32
}

// gridEntry is a segment in a cell: its ends and its first point.
type gridEntry struct {
	ends segmentEnds
	p    int32
}

// gridMargin widens every segment's box, in degrees (about 0.1 mm), before
// it is bucketed, so that a segment lies inside its cells by more than
// the rounding of the cells' edges: the cells' distances are then lower
// bounds of the segments' in floating point too.
const gridMargin = 1e-9

// segmentsPerCell sets the cells' size: one cell per segmentsPerCell
// segments over the network's extent (Delaware: 327,000 cells of about
// 175 m, a fifth of them holding any segment). Measured on Delaware with
// BenchmarkDelawareSearch: with cells of twice the area a point among
// roads searched a quarter longer; with half the area the points uniform
// over the bounding box searched some 5% longer.
const segmentsPerCell = 1

// gridRings is how many rings of cells around a point's own cell the grid
// searches before handing the search to the tree.
const gridRings = 2

// buildSegmentGrid buckets the tree's segments into about one cell per
// segmentsPerCell segments over the extent, on workers goroutines. O(S +
// C) for S segments and C cells.
func buildSegmentGrid(t *segmentTree, workers int) segmentGrid {
	if len(t.levels) == 0 {
		return segmentGrid{}
	}
	root := t.levels[len(t.levels)-1][0]
	// A wider margin round the extent than round the segments, so that
	// every widened segment box lies inside the grid.
	const edge = 1e-6
	g := segmentGrid{minLon: root.minLon - edge, minLat: root.minLat - edge}
	width, height := root.maxLon-root.minLon+2*edge, root.maxLat-root.minLat+2*edge
	// Square cells on the ground at the extent's mean latitude.
	stretch := math.Cos((root.minLat + root.maxLat) / 2 * math.Pi / 180)
	side := math.Sqrt(width * stretch * height / (float64(len(t.segments)) / segmentsPerCell))
	g.cols = max(1, min(4096, int(math.Ceil(width*stretch/side))))
	g.rows = max(1, min(4096, int(math.Ceil(height/side))))
	g.cellLon, g.cellLat = width/float64(g.cols), height/float64(g.rows)
	g.perLon, g.perLat = 1/g.cellLon, 1/g.cellLat
	// Count, place, fill: each worker counts its share of the segments
	// per cell, then writes them where the prefix sums put them, so the
	// entries of a cell keep the tree's (Hilbert) order.
	cells := g.cols * g.rows
	chunks := parallel.Workers(workers)
	counts := make([][]int32, chunks)
	span := (len(t.ends) + chunks - 1) / chunks
	parallel.For(chunks, chunks, func(w int) {
		c := hugepages.Make[int32](cells)
		for _, e := range t.ends[min(w*span, len(t.ends)):min((w+1)*span, len(t.ends))] {
			i0, j0, i1, j1 := g.cellsOf(e)
			for j := j0; j <= j1; j++ {
				for i := i0; i <= i1; i++ {
					c[j*g.cols+i]++
				}
			}
		}
		counts[w] = c
	})
	g.start = hugepages.Make[int32](cells + 1)
	total := int32(0)
	for c := range cells {
		g.start[c] = total
		for w := range chunks {
			n := counts[w][c]
			counts[w][c] = total
			total += n
		}
	}
	g.start[cells] = total
	g.entries = hugepages.Make[gridEntry](int(total))
	parallel.For(chunks, chunks, func(w int) {
		next := counts[w]
		lo := min(w*span, len(t.ends))
		for k, e := range t.ends[lo:min((w+1)*span, len(t.ends))] {
			i0, j0, i1, j1 := g.cellsOf(e)
			for j := j0; j <= j1; j++ {
				for i := i0; i <= i1; i++ {
					c := j*g.cols + i
					g.entries[next[c]] = gridEntry{ends: e, p: t.segments[lo+k]}
					next[c]++
				}
			}
		}
	})
	g.nearby = g.nearbyCells()
	return g
}

// nearbyCells returns, for every cell, the cell with entries reached first by a wave spreading from all such cells at once
// to the eight neighbours of each cell, step by step: one of the nearest
// such cells by rings. O(C) for C cells.
func (g *segmentGrid) nearbyCells() []int32 {
	cells := g.cols * g.rows
	nearby := hugepages.Make[int32](cells)
	wave := hugepages.Make[int32](cells)[:0]
	for c := range cells {
		nearby[c] = -1
		if g.start[c] < g.start[c+1] {
			nearby[c] = int32(c)
			wave = append(wave, int32(c))
		}
	}
	for k := 0; k < len(wave); k++ {
		c := int(wave[k])
		i, j := c%g.cols, c/g.cols
		for dj := -1; dj <= 1; dj++ {
			for di := -1; di <= 1; di++ {
				ni, nj := i+di, j+dj
				if ni < 0 || ni >= g.cols || nj < 0 || nj >= g.rows {
					continue
				}
				if n := nj*g.cols + ni; nearby[n] < 0 {
					nearby[n] = nearby[c]
					wave = append(wave, int32(n))
				}
			}
		}
	}
	return nearby
}

// cellsOf returns the columns i0..i1 and rows j0..j1 of the cells the
// widened box of the segment e meets.
func (g *segmentGrid) cellsOf(e segmentEnds) (i0, j0, i1, j1 int) {
	col := func(lon float64) int { return min(max(int(math.Floor((lon-g.minLon)*g.perLon)), 0), g.cols-1) }
	row := func(lat float64) int { return min(max(int(math.Floor((lat-g.minLat)*g.perLat)), 0), g.rows-1) }
	return col(min(e.aLon, e.bLon) - gridMargin), row(min(e.aLat, e.bLat) - gridMargin),
		col(max(e.aLon, e.bLon) + gridMargin), row(max(e.aLat, e.bLat) + gridMargin)
}

// lonEdge and latEdge are the western edge of column i and the southern
// edge of row j.
func (g *segmentGrid) lonEdge(i int) float64 { return g.minLon + float64(i)*g.cellLon }
func (g *segmentGrid) latEdge(j int) float64 { return g.minLat + float64(j)*g.cellLat }

// nearest improves on the best segment given (first point best, squared
// distance bestDist2, -1 and the bound when none) with the segments of
// the cells within gridRings of f's centre, with the tree's tie rule. It
// reports settled when no segment outside those cells can be as near as
// the result. When it is not, and the rings held no segment in reach, the
// result is the segment of the cell's nearby entry when that lies within
// the bound. A centre outside the grid searches no rings: it takes the
// nearby entry of the cell on the grid's edge nearest to it.
func (g *segmentGrid) nearest(f frame, best int32, bestDist2 float64) (int32, float64, bool) {
	if g.cols == 0 {
		return best, bestDist2, false
	}
	x, y := (f.lon-g.minLon)*g.perLon, (f.lat-g.minLat)*g.perLat
	if !(x >= 0 && x < float64(g.cols) && y >= 0 && y < float64(g.rows)) {
		if math.IsNaN(x) || math.IsNaN(y) {
			return best, bestDist2, false
		}
		cx, cy := int(min(max(x, 0), float64(g.cols-1))), int(min(max(y, 0), float64(g.rows-1)))
		best, bestDist2 = g.nearbyCandidate(f, cx, cy, best, bestDist2)
		return best, bestDist2, false
	}
	cx, cy := int(x), int(y)
	for r := 0; ; r++ {
		// Rings 0..r-1 are searched: anything else lies beyond the
		// block of cells they make.
		if r > 0 && g.outside2(f, cx, cy, r-1) > bestDist2 {
			return best, bestDist2, true
		}
		if r > gridRings {
			if best < 0 {
				best, bestDist2 = g.nearbyCandidate(f, cx, cy, best, bestDist2)
			}
			return best, bestDist2, false
		}
		i0, i1 := max(cx-r, 0), min(cx+r, g.cols-1)
		for j := max(cy-r, 0); j <= min(cy+r, g.rows-1); j++ {
			if j == cy-r || j == cy+r {
				for i := i0; i <= i1; i++ {
					best, bestDist2 = g.searchCell(f, i, j, best, bestDist2)
				}
				continue
			}
			if cx-r >= 0 {
				best, bestDist2 = g.searchCell(f, cx-r, j, best, bestDist2)
			}
			if cx+r < g.cols {
				best, bestDist2 = g.searchCell(f, cx+r, j, best, bestDist2)
			}
		}
	}
}

// nearbyCandidate improves on the best segment with those of the nearby
// cell of cell (cx, cy).
func (g *segmentGrid) nearbyCandidate(f frame, cx, cy int, best int32, bestDist2 float64) (int32, float64) {
	c := g.nearby[cy*g.cols+cx]
	if c < 0 {
		return best, bestDist2
	}
	return g.searchEntries(f, g.start[c], g.start[c+1], best, bestDist2)
}

// outside2 is the squared projected distance from f's centre, in cell
// (cx, cy), to the nearest point outside the block of cells within r of
// that cell; a side of the block on the grid's edge does not count, no
// segment lying beyond it.
func (g *segmentGrid) outside2(f frame, cx, cy, r int) float64 {
	d := math.Inf(1)
	if cx-r > 0 {
		d = min(d, (f.lon-g.lonEdge(cx-r))*f.kx)
	}
	if cx+r+1 < g.cols {
		d = min(d, (g.lonEdge(cx+r+1)-f.lon)*f.kx)
	}
	if cy-r > 0 {
		d = min(d, (f.lat-g.latEdge(cy-r))*f.ky)
	}
	if cy+r+1 < g.rows {
		d = min(d, (g.latEdge(cy+r+1)-f.lat)*f.ky)
	}
	d = max(d, 0)
	return d * d
}

// searchCell improves on the best segment with those of cell (i, j),
// unless the whole cell lies farther.
func (g *segmentGrid) searchCell(f frame, i, j int, best int32, bestDist2 float64) (int32, float64) {
	c := j*g.cols + i
	lo, hi := g.start[c], g.start[c+1]
	if lo == hi || f.boxDistance2(g.lonEdge(i), g.latEdge(j), g.lonEdge(i+1), g.latEdge(j+1)) > bestDist2 {
		return best, bestDist2
	}
	return g.searchEntries(f, lo, hi, best, bestDist2)
}

// searchEntries improves on the best segment with entries lo..hi-1, with
// the tree's tie rule.
func (g *segmentGrid) searchEntries(f frame, lo, hi int32, best int32, bestDist2 float64) (int32, float64) {
	for k := lo; k < hi; k++ {
		e := &g.entries[k]
		ax, ay, bx, by := e.ends.aLon, e.ends.aLat, e.ends.bLon, e.ends.bLat
		if f.segmentBoxDistance2(ax, ay, bx, by) > bestDist2 {
			continue
		}
		_, d2 := f.project(ax, ay, bx, by)
		if p := e.p; d2 < bestDist2 || (d2 == bestDist2 && (best < 0 || p < best)) {
			best, bestDist2 = p, d2
		}
	}
	return best, bestDist2
}
