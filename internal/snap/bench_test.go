package snap

import (
	"math"
	"math/rand/v2"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/tidwall/rtree"
)

// delawarePoints is how many random points the benchmarks snap.
const delawarePoints = 1_000_000

// BenchmarkDelaware builds the index of the Delaware network and snaps
// 1,000,000 points on 2 workers: the target is 1 s for both the build and
// the snaps. Two sets of points: drawn uniformly from the state's
// bounding box (about half of them in the bay, the ocean or the
// neighbouring states, up to 40 km from the nearest road of the extract),
// with no limit on the distance and with a limit of 1 km (the search then
// stops at 2 km); and drawn within about 300 m of random vertices, as the
// places of a user inside the state lie, with the 1 km limit. It reports
// the build and the snaps apart, the time per point, and the processor
// time of both (cpu-s, steadier than the elapsed time on a busy machine).
func BenchmarkDelaware(b *testing.B) {
	net, _ := delawareNetwork(b)
	const workers = 2
	boxLon, boxLat := randomPoints(rand.New(rand.NewPCG(2, 30)), delawarePoints)
	nearLon, nearLat := pointsNearVertices(rand.New(rand.NewPCG(3, 30)), net, delawarePoints)
	for _, c := range []struct {
		name     string
		lon, lat []float64
		limit    float64
	}{
		{"box/limit=none", boxLon, boxLat, math.Inf(1)},
		{"box/limit=1000", boxLon, boxLat, 1000},
		{"near-roads/limit=1000", nearLon, nearLat, 1000},
	} {
		b.Run(c.name, func(b *testing.B) {
			var build, snap time.Duration
			cpu := 0.0
			// Not the collection of what reading the network left.
			runtime.GC()
			for b.Loop() {
				cpuStart := cpuSeconds()
				start := time.Now()
				ix, err := NewIndex(net, workers)
				if err != nil {
					b.Fatal(err)
				}
				built := time.Now()
				ix.SnapAll(c.lon, c.lat, c.limit, workers)
				build += built.Sub(start)
				snap += time.Since(built)
				cpu += cpuSeconds() - cpuStart
			}
			b.ReportMetric(cpu/float64(b.N), "cpu-s")
			b.ReportMetric(build.Seconds()/float64(b.N), "build-s")
			b.ReportMetric(snap.Seconds()/float64(b.N), "snap-s")
			b.ReportMetric(float64(snap.Nanoseconds())/float64(b.N)/delawarePoints, "ns/point")
		})
	}
}

// cpuSeconds is the processor time the process has used so far, user and
// system: on a shared machine it varies less than the elapsed time.
func cpuSeconds() float64 {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano()).Seconds()
}

// pointsNearVertices draws count points each within about 300 m of a
// random vertex of net.
func pointsNearVertices(rng *rand.Rand, net Network, count int) (lon, lat []float64) {
	lon, lat = make([]float64, count), make([]float64, count)
	n := len(net.Vertices.X)
	for i := range lon {
		v := int32(rng.IntN(n))
		lon[i] = net.Vertices.Lon(v) + (rng.Float64()-0.5)*0.007
		lat[i] = net.Vertices.Lat(v) + (rng.Float64()-0.5)*0.0054
	}
	return lon, lat
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
						e := ix.segmentEnds(p)
						_, d2 := f.project(e.aLon, e.aLat, e.bLon, e.bLat)
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

// BenchmarkDelawareSearch times the search alone (the segment of each
// point, not its place) on one goroutine, points in the order SnapAll
// searches them, to weigh changes to the search: near-road points and
// points uniform over the bounding box, with no limit.
func BenchmarkDelawareSearch(b *testing.B) {
	net, _ := delawareNetwork(b)
	ix, err := NewIndex(net, 2)
	if err != nil {
		b.Fatal(err)
	}
	const points = delawarePoints
	boxLon, boxLat := randomPoints(rand.New(rand.NewPCG(2, 30)), points)
	nearLon, nearLat := pointsNearVertices(rand.New(rand.NewPCG(3, 30)), net, points)
	for _, c := range []struct {
		name     string
		lon, lat []float64
	}{{"box", boxLon, boxLat}, {"near-roads", nearLon, nearLat}} {
		b.Run(c.name, func(b *testing.B) {
			order := ix.searchOrder(c.lon, c.lat, 1)
			for b.Loop() {
				for _, i := range order {
					ix.locate(c.lon[i], c.lat[i], math.Inf(1))
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/points, "ns/point")
		})
	}
}
