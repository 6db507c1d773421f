package snap

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pathflow/pathflow/internal/earth"
	"github.com/pathflow/pathflow/internal/graph"
)

// bruteNearest returns, over every segment of every arc, the smallest
// great-circle distance from (lon, lat) to a segment's nearest point and
// where that point lies, found without the index: each segment is
// sampled by ternary search on the distance along it (the distance to a point
// moving along a segment is unimodal in the local plane).
func bruteNearest(net Network, lon, lat float64) (best, bestLon, bestLat float64) {
	best = math.Inf(1)
	f := frameAt(lon, lat)
	dist := func(x, y float64) float64 {
		dx, dy := (x-lon)*f.kx, (y-lat)*f.ky
		return math.Hypot(dx, dy)
	}
	for a := range net.Edges.M() {
		poly := arcPolyline(net, int32(a))
		for k := 0; k+1 < len(poly); k++ {
			ax, ay, bx, by := poly[k][0], poly[k][1], poly[k+1][0], poly[k+1][1]
			// A segment whose box lies well beyond the best so far cannot
			// hold a nearer point (the box's distance in the plane
			// is within a per cent of the great-circle one here).
			if math.Sqrt(f.boxDistance2(min(ax, bx), min(ay, by), max(ax, bx), max(ay, by))) > 1.01*best+1 {
				continue
			}
			at := func(s float64) (float64, float64) { return ax + s*(bx-ax), ay + s*(by-ay) }
			lo, hi := 0.0, 1.0
			for range 100 {
				m1, m2 := lo+(hi-lo)/3, hi-(hi-lo)/3
				x1, y1 := at(m1)
				x2, y2 := at(m2)
				if dist(x1, y1) <= dist(x2, y2) {
					hi = m2
				} else {
					lo = m1
				}
			}
			x, y := at((lo + hi) / 2)
			if d := earth.Distance(lon, lat, x, y); d < best {
				best, bestLon, bestLat = d, x, y
			}
		}
	}
	return best, bestLon, bestLat
}

// arcPolyline returns arc a's points, tail to head, in degrees.
func arcPolyline(net Network, a int32) [][2]float64 {
	vs, e := net.Vertices, net.Edges
	poly := [][2]float64{{vs.Lon(e.Src[a]), vs.Lat(e.Src[a])}}
	if len(net.Geometry.Offsets) > 0 {
		xs, ys := net.Geometry.Points(int(a))
		for k := range xs {
			poly = append(poly, [2]float64{float64(xs[k]) / graph.UnitsPerDegree, float64(ys[k]) / graph.UnitsPerDegree})
		}
	}
	return append(poly, [2]float64{vs.Lon(e.Dst[a]), vs.Lat(e.Dst[a])})
}

// pointAlong returns the point alongM metres from arc a's tail along its
// polyline (each segment straight in degrees, its points measured from
// its start by haversine), and whether the arc is that long (to a
// millimetre).
func pointAlong(net Network, a int32, alongM float64) (lon, lat float64, ok bool) {
	poly := arcPolyline(net, a)
	for k := 0; k+1 < len(poly); k++ {
		ax, ay, bx, by := poly[k][0], poly[k][1], poly[k+1][0], poly[k+1][1]
		seg := earth.Distance(ax, ay, bx, by)
		if alongM <= seg || k+2 == len(poly) {
			lo, hi := 0.0, 1.0
			for range 100 {
				if mid := (lo + hi) / 2; earth.Distance(ax, ay, ax+mid*(bx-ax), ay+mid*(by-ay)) < alongM {
					lo = mid
				} else {
					hi = mid
				}
			}
			return ax + lo*(bx-ax), ay + lo*(by-ay), alongM <= seg+1e-3
		}
		alongM -= seg
	}
	return 0, 0, false
}

// arcLength is the length of arc a's polyline in metres.
func arcLength(net Network, a int32) float64 {
	poly := arcPolyline(net, a)
	length := 0.0
	for k := 0; k+1 < len(poly); k++ {
		length += earth.Distance(poly[k][0], poly[k][1], poly[k+1][0], poly[k+1][1])
	}
	return length
}

// randomNetwork builds a network of n vertices scattered over a square of
// side milli-degrees around (-75.5, 39.2): random arcs with up to three
// intermediate points, about half of them two-way streets (a reverse arc
// with the reversed geometry and its own weight), some parallel arcs.
func randomNetwork(rng *rand.Rand, n, arcs int, side float64) Network {
	coords := make([][2]float64, n)
	point := func() [2]float64 {
		// Whole 10^-7 degrees, as stored.
		return [2]float64{math.Round((-75.5+rng.Float64()*side*milli)*1e7) / 1e7, math.Round((39.2+rng.Float64()*side*milli)*1e7) / 1e7}
	}
	for v := range coords {
		coords[v] = point()
	}
	var list []arc
	for len(list) < arcs {
		u, v := rng.Int32N(int32(n)), rng.Int32N(int32(n))
		if u == v {
			continue
		}
		var via [][2]float64
		for range rng.IntN(4) {
			via = append(via, point())
		}
		list = append(list, arc{u: u, v: v, w: rng.Int32N(100000), via: via})
		if rng.IntN(2) == 0 {
			back := make([][2]float64, len(via))
			for k := range via {
				back[k] = via[len(via)-1-k]
			}
			list = append(list, arc{u: v, v: u, w: rng.Int32N(100000), via: back})
		}
	}
	return network(coords, list)
}

// TestRandomAgainstBruteForce snaps random points on random networks and
// checks each answer against a search of every segment: the same
// distance, a position on the arc it names at AlongM, and seeds whose
// vertices and weights follow from that arc and its reverse twin.
func TestRandomAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 30))
	for trial := range 20 {
		net := randomNetwork(rng, 5+rng.IntN(40), 5+rng.IntN(60), 10)
		ix := mustIndex(t, net)
		lon, lat := make([]float64, 300), make([]float64, 300)
		for i := range lon {
			// Some points outside the square, and some exactly on a
			// vertex of an arc.
			lon[i], lat[i] = -75.5+(rng.Float64()*1.4-0.2)*10*milli, 39.2+(rng.Float64()*1.4-0.2)*10*milli
			if i%10 == 0 {
				v := net.Edges.Src[rng.IntN(net.Edges.M())]
				lon[i], lat[i] = net.Vertices.Lon(v), net.Vertices.Lat(v)
			}
		}
		places := ix.SnapAll(lon, lat, math.Inf(1), 3)
		for i, p := range places {
			want, wantLon, wantLat := bruteNearest(net, lon[i], lat[i])
			if !p.OK {
				t.Fatalf("trial %d point %d: %s", trial, i, p.Reason)
			}
			if math.Abs(p.DistanceM-want) > 1e-6+1e-9*want {
				t.Fatalf("trial %d point %d (%.7f, %.7f): %.6f m to (%.7f, %.7f), brute force %.6f m to (%.7f, %.7f)",
					trial, i, lon[i], lat[i], p.DistanceM, p.Lon, p.Lat, want, wantLon, wantLat)
			}
			if d := earth.Distance(lon[i], lat[i], p.Lon, p.Lat); math.Abs(d-p.DistanceM) > 1e-6 {
				t.Fatalf("trial %d point %d: DistanceM %.6f, but the position is %.6f m away", trial, i, p.DistanceM, d)
			}
			checkOnArc(t, net, p)
			checkSeeds(t, net, p, i%10 == 0)
		}
	}
}

// checkOnArc checks that p's position lies on p.Arc, p.AlongM from its
// tail.
func checkOnArc(t *testing.T, net Network, p Place) {
	t.Helper()
	x, y, ok := pointAlong(net, p.Arc, p.AlongM)
	if !ok || earth.Distance(x, y, p.Lon, p.Lat) > 1e-3 {
		t.Fatalf("arc %d at %.4f m lies at (%.7f, %.7f), the place at (%.7f, %.7f)", p.Arc, p.AlongM, x, y, p.Lon, p.Lat)
	}
}

// checkSeeds checks p's seeds against the arcs: on a vertex, that vertex
// with weight 0; elsewhere the head and tail of p.Arc with its weight
// shared in proportion of length, and the same for its reverse twin when
// the network has one.
func checkSeeds(t *testing.T, net Network, p Place, onVertex bool) {
	t.Helper()
	e := net.Edges
	a := p.Arc
	tail, head := e.Src[a], e.Dst[a]
	length := arcLength(net, a)
	atTail, atHead := p.AlongM == 0, math.Abs(p.AlongM-length) < 1e-9 && (p.Lon == net.Vertices.Lon(head) && p.Lat == net.Vertices.Lat(head))
	if onVertex && !atTail && !atHead {
		t.Fatalf("a point on a vertex placed %.4f m along arc %d of %.4f m", p.AlongM, a, length)
	}
	if atTail || atHead {
		v := tail
		if atHead && !atTail {
			v = head
		}
		if len(p.Out) != 1 || len(p.In) != 1 || p.Out[0] != (Seed{v, 0}) || p.In[0] != (Seed{v, 0}) {
			t.Fatalf("on vertex %d: Out %v In %v", v, p.Out, p.In)
		}
		return
	}
	share := func(w int32, piece float64) int64 { return int64(math.Round(float64(w) * piece / length)) }
	// Pieces may round differently where the share lands within 1e-6 of
	// a half.
	close := func(got Seed, v int32, w int64) bool { return got.Vertex == v && math.Abs(float64(got.Weight-w)) <= 1 }
	twin := int32(-1)
	for b := range int32(e.M()) {
		if b != a && e.Src[b] == head && e.Dst[b] == tail && reversedGeometry(net.Geometry, a, b) {
			twin = b
			break
		}
	}
	wantSeeds := 1
	if twin >= 0 {
		wantSeeds = 2
	}
	if len(p.Out) != wantSeeds || len(p.In) != wantSeeds {
		t.Fatalf("arc %d (twin %d): Out %v In %v", a, twin, p.Out, p.In)
	}
	if !close(p.Out[0], head, share(e.Weight[a], length-p.AlongM)) || !close(p.In[0], tail, share(e.Weight[a], p.AlongM)) {
		t.Fatalf("arc %d of %.3f m, weight %d, at %.3f m: Out %v In %v", a, length, e.Weight[a], p.AlongM, p.Out, p.In)
	}
	if twin >= 0 && (!close(p.Out[1], tail, share(e.Weight[twin], p.AlongM)) || !close(p.In[1], head, share(e.Weight[twin], length-p.AlongM))) {
		t.Fatalf("twin %d of arc %d, weight %d, at %.3f m: Out %v In %v", twin, a, e.Weight[twin], p.AlongM, p.Out, p.In)
	}
}

// TestSnapAllMatchesSnap checks that SnapAll answers as Snap does, point
// by point, whatever the number of workers.
func TestSnapAllMatchesSnap(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 30))
	net := randomNetwork(rng, 200, 400, 30)
	ix := mustIndex(t, net)
	n := 2000
	lon, lat := make([]float64, n), make([]float64, n)
	for i := range n {
		lon[i], lat[i] = -75.5+rng.Float64()*40*milli, 39.2+rng.Float64()*40*milli
	}
	lat[7] = math.NaN()
	for _, workers := range []int{1, 2, 7} {
		all := ix.SnapAll(lon, lat, 300, workers)
		for i := range n {
			one := ix.Snap(lon[i], lat[i], 300)
			if !samePlace(all[i], one) {
				t.Fatalf("%d workers, point %d: SnapAll %+v, Snap %+v", workers, i, all[i], one)
			}
		}
	}
}

// samePlace reports whether two places are the same answer.
func samePlace(a, b Place) bool {
	return a.OK == b.OK && a.Reason == b.Reason && a.Lon == b.Lon && a.Lat == b.Lat && a.DistanceM == b.DistanceM &&
		a.Arc == b.Arc && a.AlongM == b.AlongM && a.on == b.on && slices.Equal(a.Out, b.Out) && slices.Equal(a.In, b.In)
}
