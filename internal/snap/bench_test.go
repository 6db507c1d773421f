package snap

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/tidwall/rtree"
)

// delawarePoints is how many random points the benchmarks snap.
const delawarePoints = 1_000_000

// BenchmarkDelaware builds the index of the Delaware network and snaps
// 1,000,000 points drawn uniformly from the state's bounding box (about
// half of them in the bay, the ocean or the neighbouring states, up to
// 40 km from the nearest road of the extract) on 2 workers, with no limit
// on the distance and with a limit of 1 km (the search then stops at
// 2 km): the target is 1 s for both the build and the snaps. It reports
// the build and the snaps apart, and the time per point.
func BenchmarkDelaware(b *testing.B) {
	net, _ := delawareNetwork(b)
	const workers = 2
	lon, lat := randomPoints(rand.New(rand.NewPCG(2, 30)), delawarePoints)
	for _, limit := range []float64{math.Inf(1), 1000} {
		b.Run(fmt.Sprintf("limit=%g", limit), func(b *testing.B) {
			var build, snap time.Duration
			for b.Loop() {
				start := time.Now()
				ix, err := NewIndex(net, workers)
				if err != nil {
					b.Fatal(err)
				}
				built := time.Now()
				ix.SnapAll(lon, lat, limit, workers)
				build += built.Sub(start)
				snap += time.Since(built)
			}
			b.ReportMetric(build.Seconds()/float64(b.N), "build-s")
			b.ReportMetric(snap.Seconds()/float64(b.N), "snap-s")
			b.ReportMetric(float64(snap.Nanoseconds())/float64(b.N)/delawarePoints, "ns/point")
		})
	}
}

// BenchmarkDelawareRTreeG is the measurement behind the package's own
// tree: github.com/tidwall/rtree's RTreeG over the same segments, built by
// insertion, and its best-first Nearby search for the nearest segment of
// the same random points, on one goroutine. It reports the build and the
// time per point, to set beside BenchmarkDelaware's (per point there is
// on 2 workers: double it for one).
func BenchmarkDelawareRTreeG(b *testing.B) {
	net, _ := delawareNetwork(b)
	ix, err := NewIndex(net, 1)
	if err != nil {
		b.Fatal(err)
	}
	const points = delawarePoints / 10
	lon, lat := randomPoints(rand.New(rand.NewPCG(2, 30)), points)
	var build, search time.Duration
	for b.Loop() {
		start := time.Now()
		var tree rtree.RTreeG[int32]
		for _, p := range ix.tree.segments {
			box := ix.segmentBox(p)
			tree.Insert([2]float64{box.minLon, box.minLat}, [2]float64{box.maxLon, box.maxLat}, p)
		}
		built := time.Now()
		for i := range points {
			f := frameAt(lon[i], lat[i])
			tree.Nearby(
				func(min, max [2]float64, p int32, item bool) float64 {
					if item {
						_, d2 := f.project(ix.lon[p], ix.lat[p], ix.lon[p+1], ix.lat[p+1])
						return d2
					}
					return f.boxDistance2(min[0], min[1], max[0], max[1])
				},
				func(_, _ [2]float64, _ int32, _ float64) bool { return false })
		}
		build += built.Sub(start)
		search += time.Since(built)
	}
	b.ReportMetric(build.Seconds()/float64(b.N), "build-s")
	b.ReportMetric(float64(search.Nanoseconds())/float64(b.N)/points, "ns/point")
}
