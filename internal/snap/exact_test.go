package snap

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/pathflow/pathflow/internal/parallel"
)

// scanNearest is the search the index answers, done by reading every
// segment: the segment of least projected distance from (lon, lat) within
// sqrt(bound2), the lowest-numbered of equally near ones, -1 when none.
func scanNearest(ix *Index, lon, lat, bound2 float64) int32 {
	f := frameAt(lon, lat)
	best, bestDist2 := int32(-1), bound2
	for k, p := range ix.tree.segments {
		e := ix.tree.ends[k]
		if _, d2 := f.project(e.aLon, e.aLat, e.bLon, e.bLat); d2 < bestDist2 || (d2 == bestDist2 && (best < 0 || p < best)) {
			best, bestDist2 = p, d2
		}
	}
	return best
}

// checkAgainstScan snaps the points with SnapAll and checks every place
// against the one built from the segment scanNearest finds: the same
// segment (so the same arc and position, the same tie), or the same
// reason. It returns how many points the grid settled alone.
func checkAgainstScan(t *testing.T, ix *Index, lon, lat []float64, maxMetres float64) (settledByGrid int) {
	t.Helper()
	places := ix.SnapAll(lon, lat, maxMetres, 2)
	searchM := 2.02 * max(maxMetres, 0)
	scanned := make([]int32, len(lon))
	parallel.For(len(lon), runtime.NumCPU(), func(i int) { scanned[i] = scanNearest(ix, lon[i], lat[i], searchM*searchM) })
	snapped := 0
	for i := range lon {
		seg := scanned[i]
		if seg < 0 {
			seg = noRoadWithin
		}
		var want Place
		ix.place(&want, make([]Seed, 0, 4), lon[i], lat[i], maxMetres, seg)
		if !samePlace(places[i], want) {
			t.Fatalf("point %d (%.7f, %.7f), limit %g m: %+v, scanning every segment %+v", i, lon[i], lat[i], maxMetres, places[i], want)
		}
		if _, _, settled := ix.grid.nearest(frameAt(lon[i], lat[i]), -1, searchM*searchM); settled {
			settledByGrid++
		}
		if want.OK {
			snapped++
		}
	}
	t.Logf("limit %g m: %d of %d points snapped, %d settled by the grid alone", maxMetres, snapped, len(lon), settledByGrid)
	return settledByGrid
}

// checkBothSearched fails t unless some of the points were settled by the
// grid alone and some went on to the tree.
func checkBothSearched(t *testing.T, settledByGrid, points int) {
	t.Helper()
	if settledByGrid == 0 || settledByGrid == points {
		t.Errorf("%d of %d points settled by the grid: the tree or the grid went untried", settledByGrid, points)
	}
}

// TestDelawareAgainstScan checks the index's search on the real network
// against a scan of every segment: points near roads, points uniform over
// the state's bounding box (some tens of kilometres out at sea), points
// outside the network's extent, with and without a limit.
func TestDelawareAgainstScan(t *testing.T) {
	net, _ := delawareNetwork(t)
	ix, err := NewIndex(net, 2)
	if err != nil {
		t.Fatal(err)
	}
	n := 600
	if testing.Short() {
		n = 60
	}
	rng := rand.New(rand.NewPCG(5, 30))
	nearLon, nearLat := pointsNearVertices(rng, net, n)
	boxLon, boxLat := randomPoints(rng, n)
	// A band round the bounding box, half a degree wide.
	outLon, outLat := make([]float64, n/3), make([]float64, n/3)
	for i := range outLon {
		outLon[i] = delawareWest - 0.5 + rng.Float64()*(delawareEast-delawareWest+1)
		outLat[i] = delawareSouth - 0.5 + rng.Float64()*(delawareNorth-delawareSouth+1)
	}
	settled, points := 0, 0
	for _, limit := range []float64{math.Inf(1), 1000, 30} {
		settled += checkAgainstScan(t, ix, nearLon, nearLat, limit)
		settled += checkAgainstScan(t, ix, boxLon, boxLat, limit)
		points += 2 * n
	}
	settled += checkAgainstScan(t, ix, outLon, outLat, math.Inf(1))
	checkBothSearched(t, settled, points+len(outLon))
}

// TestRandomAgainstScan checks the index's search on random networks,
// sparse and dense, against a scan of every segment, with points inside
// and around the networks and on their vertices, where ties are common.
func TestRandomAgainstScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 30))
	settled, points := 0, 0
	for trial := range 12 {
		net := randomNetwork(rng, 20+rng.IntN(2000), 20+rng.IntN(4000), 10+rng.Float64()*200)
		ix := mustIndex(t, net)
		lon, lat := make([]float64, 1000), make([]float64, 1000)
		side := 250 * milli
		for i := range lon {
			lon[i], lat[i] = -75.5+(rng.Float64()*1.4-0.2)*side, 39.2+(rng.Float64()*1.4-0.2)*side
			if i%5 == 0 {
				v := net.Edges.Src[rng.IntN(net.Edges.M())]
				lon[i], lat[i] = net.Vertices.Lon(v), net.Vertices.Lat(v)
			}
		}
		limit := []float64{math.Inf(1), 500, 50}[trial%3]
		settled += checkAgainstScan(t, ix, lon, lat, limit)
		points += len(lon)
	}
	checkBothSearched(t, settled, points)
}
