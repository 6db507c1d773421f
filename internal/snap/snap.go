package snap

import (
	"fmt"
	"math"
	"sync"
	"sync/atomic"

	"github.com/pathflow/pathflow/internal/parallel"
)

// Snap places the point (lon, lat), in degrees, at the nearest position
// on any arc, if that lies at most maxMetres away (math.Inf(1): any
// distance); NaN coordinates answer "no coordinates". Among equally near
// segments the one listed first wins, so the answer depends only on the
// network and the point. Safe for concurrent use. O(log S) for S
// segments, for a point near roads; a point far from every road visits
// the nodes of the R-tree closer than the nearest road.
func (ix *Index) Snap(lon, lat, maxMetres float64) Place {
	var p Place
	ix.snapInto(&p, make([]Seed, 0, 4), lon, lat, maxMetres)
	return p
}

// SnapAll snaps every point (lon[i], lat[i]) as Snap does, on workers
// goroutines (<= 0: one per CPU); the result does not depend on workers.
// The seeds of all places share one allocation. lon and lat must be of
// equal length.
func (ix *Index) SnapAll(lon, lat []float64, maxMetres float64, workers int) []Place {
	if len(lon) != len(lat) {
		panic(fmt.Sprintf("snap: %d longitudes and %d latitudes", len(lon), len(lat)))
	}
	n := len(lon)
	places := make([]Place, n)
	seeds := make([]Seed, 4*n)
	// Points far from roads cost more than others: workers take blocks
	// from a shared counter rather than fixed shares.
	const block = 256
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(parallel.Workers(workers), (n+block-1)/block) {
		wg.Go(func() {
			for {
				lo := int(next.Add(block)) - block
				if lo >= n {
					return
				}
				for i := lo; i < min(lo+block, n); i++ {
					ix.snapInto(&places[i], seeds[4*i:4*i:4*i+4], lon[i], lat[i], maxMetres)
				}
			}
		})
	}
	wg.Wait()
	return places
}

// snapInto snaps one point into *p, appending its seeds to seeds (room
// for four).
func (ix *Index) snapInto(p *Place, seeds []Seed, lon, lat, maxMetres float64) {
	switch {
	case math.IsNaN(lon) || math.IsNaN(lat):
		*p = failed("no coordinates")
		return
	case math.Abs(lon) > 180 || math.Abs(lat) > 90:
		*p = failed(fmt.Sprintf("coordinates out of range (longitude %g, latitude %g degrees)", lon, lat))
		return
	case ix.tree.Len() == 0:
		*p = failed("no road in the network")
		return
	}
	f := frameAt(lon, lat)
	seg := ix.nearest(f)
	t, _ := f.project(ix.lon[seg], ix.lat[seg], ix.lon[seg+1], ix.lat[seg+1])
	posLon, posLat, along := ix.lon[seg+1], ix.lat[seg+1], ix.along[seg+1]
	if t < 1 {
		posLon = ix.lon[seg] + t*(ix.lon[seg+1]-ix.lon[seg])
		posLat = ix.lat[seg] + t*(ix.lat[seg+1]-ix.lat[seg])
		along = min(ix.along[seg]+haversine(ix.lon[seg], ix.lat[seg], posLon, posLat), ix.along[seg+1])
	}
	distance := haversine(lon, lat, posLon, posLat)
	if !(distance <= maxMetres) {
		*p = failed(fmt.Sprintf("beyond the snap distance (%s > %s)", metres(distance), metres(maxMetres)))
		return
	}
	s := ix.stretchOf[seg]
	forward, backward := ix.forward[s], ix.backward[s]
	tail, head := ix.edges.Src[forward], ix.edges.Dst[forward]
	length := ix.along[ix.first[s+1]-1]
	*p = Place{OK: true, Lon: posLon, Lat: posLat, DistanceM: distance, Arc: forward, AlongM: along}
	p.on = stretchWeights{backward: backward, forwardWeight: ix.edges.Weight[forward], lengthM: length}
	if backward >= 0 {
		p.on.backwardWeight = ix.edges.Weight[backward]
	}
	switch {
	case seg == ix.first[s] && t == 0:
		p.Out = append(seeds, Seed{Vertex: tail})
		p.In = p.Out
		return
	case seg+2 == ix.first[s+1] && t == 1:
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

// nearest returns the first point of the segment nearest to f's centre
// in f's projection; of equally near segments, the lowest-numbered. The
// index must hold a segment.
func (ix *Index) nearest(f frame) int32 {
	best, bestDist2 := int32(-1), math.Inf(1)
	ix.tree.Nearby(
		func(min, max [2]float64, p int32, item bool) float64 {
			if item {
				_, d2 := f.project(ix.lon[p], ix.lat[p], ix.lon[p+1], ix.lat[p+1])
				return d2
			}
			return f.boxDistance2(min[0], min[1], max[0], max[1])
		},
		func(_, _ [2]float64, p int32, d2 float64) bool {
			if d2 > bestDist2 {
				return false
			}
			if d2 < bestDist2 || p < best {
				best, bestDist2 = p, d2
			}
			return true
		})
	return best
}
