package snap

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// BenchmarkDelaware builds the index of the Delaware network and snaps
// 1,000,000 points drawn uniformly from the state's bounding box (many
// in the bay, the ocean and the neighbouring states) with no distance
// limit, on 2 workers: the target is 1 s for both. It reports the build
// and the snaps apart, and the time per point.
func BenchmarkDelaware(b *testing.B) {
	net, _ := delawareNetwork(b)
	const points, workers = 1_000_000, 2
	lon, lat := randomPoints(rand.New(rand.NewPCG(2, 30)), points)
	var build, snap time.Duration
	for b.Loop() {
		start := time.Now()
		ix, err := NewIndex(net, workers)
		if err != nil {
			b.Fatal(err)
		}
		built := time.Now()
		ix.SnapAll(lon, lat, math.Inf(1), workers)
		build += built.Sub(start)
		snap += time.Since(built)
	}
	b.ReportMetric(build.Seconds()/float64(b.N), "build-s")
	b.ReportMetric(snap.Seconds()/float64(b.N), "snap-s")
	b.ReportMetric(float64(snap.Nanoseconds())/float64(b.N)/points, "ns/point")
}
