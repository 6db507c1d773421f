package snap

import (
	"fmt"
	"math"
	"sync"
	"sync/atomic"

	"github.com/pathflow/pathflow/internal/earth"
	"github.com/pathflow/pathflow/internal/hugepages"
	"github.com/pathflow/pathflow/internal/parallel"
)

// Snap places the point (lon, lat), in degrees, at the nearest position
// on any arc, if that lies at most maxMetres away (math.Inf(1): any
// distance); NaN coordinates answer "no coordinates". Among equally near
// segments the one listed first wins, so the answer depends only on the
// network and the point. Safe for concurrent use. O(1) for a point among
// roads (the segments of a few cells of the grid); a point far from
// every road visits the nodes of the R-tree about as near as the nearest
// road, O(log S) of them for S segments.
func (ix *Index) Snap(lon, lat, maxMetres float64) Place {
	var p Place
	ix.snapInto(&p, make([]Seed, 0, 4), lon, lat, maxMetres)
	return p
}

// SnapAll snaps every point (lon[i], lat[i]) as Snap does, on workers
// goroutines (<= 0: one per CPU); the result does not depend on workers.
// The seeds of all places share one allocation. lon and lat must be of
// equal length, below 2^31.
//
// It works in two passes. The searches run in the points' Z order over
// the network's extent (searchOrder), so that points searched one after
// another read the same cells and nodes, which stay in cache; each
// leaves its segment in a slice of int32. The places are
// then written in the points' own order, a sequential sweep over the
// large slices of places and seeds rather than a scatter (writing them
// in search order took a tenth of the time).
func (ix *Index) SnapAll(lon, lat []float64, maxMetres float64, workers int) []Place {
	if len(lon) != len(lat) {
		panic(fmt.Sprintf("snap: %d longitudes and %d latitudes", len(lon), len(lat)))
	}
	n := len(lon)
	order := ix.searchOrder(lon, lat, workers)
	segs := hugepages.Make[int32](n)
	inBlocks(n, workers, func(lo, hi int) {
		// Gathered and scattered in loops of their own, the reads and
		// writes of a block's points miss the cache together rather
		// than one search after another.
		ids := order[lo:hi]
		var lons, lats [block]float64
		var found [block]int32
		for k, i := range ids {
			lons[k], lats[k] = lon[i], lat[i]
		}
		for k := range ids {
			found[k] = ix.locate(lons[k], lats[k], maxMetres)
		}
		for k, i := range ids {
			segs[i] = found[k]
		}
	})
	places := hugepages.Make[Place](n)
	seeds := hugepages.Make[Seed](4 * n)
	// One reason for every point with no road in reach, not a message
	// formatted for each.
	var none Place
	ix.place(&none, nil, 0, 0, maxMetres, noRoadWithin)
	inBlocks(n, workers, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			if segs[i] == noRoadWithin {
				places[i] = none
				continue
			}
			ix.place(&places[i], seeds[4*i:4*i:4*i+4], lon[i], lat[i], maxMetres, segs[i])
		}
	})
	return places
}

// block is how many consecutive points a worker of SnapAll takes at once.
const block = 256

// inBlocks runs body over consecutive blocks of 0..n-1 on workers
// goroutines (<= 0: one per CPU). Points far from roads cost more than
// others: workers take blocks from a shared counter rather than fixed
// shares.
func inBlocks(n, workers int, body func(lo, hi int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(parallel.Workers(workers), (n+block-1)/block) {
		wg.Go(func() {
			for {
				lo := int(next.Add(block)) - block
				if lo >= n {
					return
				}
				body(lo, min(lo+block, n))
			}
		})
	}
	wg.Wait()
}

// searchOrder returns the indices of the points in Z order (bits of the
// column and row interleaved) over a 1024 x 1024 grid on the network's
// extent (points outside it count as on its edge), points of one cell in
// their own order. On Delaware's random points the tree's search took
// about 3.5 us a point in random order and 2 us in Hilbert order. Z order
// searched as fast within the noise of BenchmarkDelawareSearch, and is
// computed without the branches of the Hilbert curve, which took 5% of
// a snap's time. O(n): two passes of a radix sort on the 20-bit
// positions.
func (ix *Index) searchOrder(lon, lat []float64, workers int) []int32 {
	const bits = 10
	n := len(lon)
	keys := hugepages.Make[uint32](n)
	extent := emptyBox
	if len(ix.tree.levels) > 0 {
		extent = ix.tree.levels[len(ix.tree.levels)-1][0]
	}
	parallel.Chunks(n, parallel.Workers(workers), 1<<14, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			keys[i] = extent.morton(lon[i], lat[i], bits)
		}
	})
	// Least significant half first; each pass is stable.
	order, next := hugepages.Make[int32](n), hugepages.Make[int32](n)
	for i := range order {
		order[i] = int32(i)
	}
	for shift := uint(0); shift < 2*bits; shift += bits {
		var start [1<<bits + 1]int32
		for _, k := range keys {
			start[(k>>shift)&(1<<bits-1)+1]++
		}
		for b := 1; b <= 1<<bits; b++ {
			start[b] += start[b-1]
		}
		for _, i := range order {
			b := (keys[i] >> shift) & (1<<bits - 1)
			next[start[b]] = i
			start[b]++
		}
		order, next = next, order
	}
	return order
}

// snapInto snaps one point into *p, appending its seeds to seeds (room
// for four).
func (ix *Index) snapInto(p *Place, seeds []Seed, lon, lat, maxMetres float64) {
	ix.place(p, seeds, lon, lat, maxMetres, ix.locate(lon, lat, maxMetres))
}

// Reasons locate gives in place of a segment.
const (
	noCoordinates = -1 - iota
	outOfRange
	noRoad
	noRoadWithin
)

// locate returns the first point of the segment nearest to (lon, lat),
// searching up to twice maxMetres away to say how far beyond the limit
// the road is, or one of the negative reasons above.
func (ix *Index) locate(lon, lat, maxMetres float64) int32 {
	switch {
	case math.IsNaN(lon) || math.IsNaN(lat):
		return noCoordinates
	case math.Abs(lon) > 180 || math.Abs(lat) > 90:
		return outOfRange
	case len(ix.tree.segments) == 0:
		return noRoad
	}
	// The projected and great-circle distances differ by far less than
	// the extra per cent.
	searchM := 2.02 * max(maxMetres, 0)
	f := frameAt(lon, lat)
	seg, dist2, settled := ix.grid.nearest(f, -1, searchM*searchM)
	if !settled {
		seg, _ = ix.tree.nearest(f, seg, dist2)
	}
	if seg >= 0 {
		return seg
	}
	return noRoadWithin
}

// place fills *p for the point (lon, lat) located on segment seg (or a
// negative reason), appending its seeds to seeds (room for four).
func (ix *Index) place(p *Place, seeds []Seed, lon, lat, maxMetres float64, seg int32) {
	switch seg {
	case noCoordinates:
		*p = failed("no coordinates")
		return
	case outOfRange:
		*p = failed(fmt.Sprintf("coordinates out of range (longitude %g, latitude %g degrees)", lon, lat))
		return
	case noRoad:
		*p = failed("no road in the network")
		return
	case noRoadWithin:
		*p = failed(fmt.Sprintf("no road within %s", metres(2*max(maxMetres, 0))))
		return
	}
	f := frameAt(lon, lat)
	a, b := &ix.points[seg], &ix.points[seg+1]
	t, _ := f.project(a.lon, a.lat, b.lon, b.lat)
	posLon, posLat, along := b.lon, b.lat, b.along
	if t < 1 {
		posLon = a.lon + t*(b.lon-a.lon)
		posLat = a.lat + t*(b.lat-a.lat)
		along = min(a.along+earth.Distance(a.lon, a.lat, posLon, posLat), b.along)
	}
	distance := earth.Distance(lon, lat, posLon, posLat)
	if !(distance <= maxMetres) {
		*p = failed(fmt.Sprintf("beyond the snap distance (%s > %s)", metres(distance), metres(maxMetres)))
		return
	}
	st := &ix.stretches[a.stretch]
	forward, backward := st.forward, st.backward
	tail, head := st.tail, st.head
	length := st.lengthM
	*p = Place{OK: true, Lon: posLon, Lat: posLat, DistanceM: distance, Arc: forward, AlongM: along}
	p.on = stretchWeights{backward: backward, forwardWeight: st.forwardWeight, lengthM: length}
	if backward >= 0 {
		p.on.backwardWeight = st.backwardWeight
	}
	switch {
	case seg == st.first && t == 0:
		p.Out = append(seeds, Seed{Vertex: tail})
		p.In = p.Out
		return
	case seg+1 == st.last && t == 1:
		p.Out = append(seeds, Seed{Vertex: head})
		p.In = p.Out
		return
	}
	toHead, fromTail := length-along, along
	out := append(seeds, Seed{Vertex: head, Weight: pieceWeight(p.on.forwardWeight, toHead, length)})
	if backward >= 0 {
		out = append(out, Seed{Vertex: tail, Weight: pieceWeight(p.on.backwardWeight, fromTail, length)})
	}
	in := append(out[len(out):], Seed{Vertex: tail, Weight: pieceWeight(p.on.forwardWeight, fromTail, length)})
	if backward >= 0 {
		in = append(in, Seed{Vertex: head, Weight: pieceWeight(p.on.backwardWeight, toHead, length)})
	}
	p.Out, p.In = out[:len(out):len(out)], in
}
