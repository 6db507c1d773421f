package snap

import (
	"context"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"sync"
	"testing"

	"github.com/pathflow/pathflow/formats/osmroads"
	"github.com/pathflow/pathflow/formats/osmroads/osmroadstest"
	"github.com/pathflow/pathflow/internal/earth"
	"github.com/pathflow/pathflow/internal/tables"
)

// Delaware's bounding box, degrees.
const (
	delawareWest, delawareEast   = -75.79, -75.05
	delawareSouth, delawareNorth = 38.45, 39.84
)

// delaware is the car network of the Delaware extract (2016, (c)
// OpenStreetMap contributors, ODbL), read once per process.
var delaware = sync.OnceValues(func() (*osmroads.Network, error) {
	path := osmroadstest.Path(osmroadstest.Delaware)
	if path == "" {
		return nil, nil
	}
	return osmroads.Read(context.Background(), path, func(osmroads.Pass) (io.ReadCloser, error) { return os.Open(path) },
		osmroads.Options{Workers: runtime.NumCPU()})
})

// delawareNetwork returns the Delaware network for snapping, skipping tb
// where the extract is absent.
func delawareNetwork(tb testing.TB) (Network, *osmroads.Network) {
	tb.Helper()
	osmroadstest.Extract(tb, osmroadstest.Delaware)
	net, err := delaware()
	if err != nil {
		tb.Fatal(err)
	}
	g := net.Geometry
	return Network{Vertices: net.Vertices, Edges: net.Edges, Geometry: tables.ArcGeometry{Offsets: g.Offsets, X: g.X, Y: g.Y}}, net
}

// randomPoints returns n points drawn uniformly from Delaware's bounding
// box.
func randomPoints(rng *rand.Rand, n int) (lon, lat []float64) {
	lon, lat = make([]float64, n), make([]float64, n)
	for i := range n {
		lon[i] = delawareWest + rng.Float64()*(delawareEast-delawareWest)
		lat[i] = delawareSouth + rng.Float64()*(delawareNorth-delawareSouth)
	}
	return lon, lat
}

// TestDelaware snaps random points onto the real network: every place
// lies on the arc it names, DistanceM from the point, with seeds that
// follow from the arc; a sample agrees with a search of every segment;
// the limit turns exactly the farther points away. Twin arcs have the
// same length.
func TestDelaware(t *testing.T) {
	net, osm := delawareNetwork(t)
	ix, err := NewIndex(net, 2)
	if err != nil {
		t.Fatal(err)
	}
	m := net.Edges.M()
	if twoWay := m - ix.Stretches(); twoWay < m/4 || ix.Stretches() > m {
		t.Errorf("%d arcs make %d stretches: too few two-way streets", m, ix.Stretches())
	}
	// Twins are mostly the two directions of one way (two one-way ways
	// over the same nodes make them too).
	sameWay := 0
	for s, a := range ix.forward {
		b := ix.backward[s]
		if b < 0 {
			continue
		}
		if osm.LengthM[a] != osm.LengthM[b] {
			t.Fatalf("twin arcs %d and %d: %d and %d m", a, b, osm.LengthM[a], osm.LengthM[b])
		}
		if osm.WayID[a] == osm.WayID[b] {
			sameWay++
		}
	}
	if twoWay := m - ix.Stretches(); sameWay < twoWay*99/100 {
		t.Errorf("of %d twin pairs only %d along one way", twoWay, sameWay)
	}
	rng := rand.New(rand.NewPCG(1, 30))
	n := 20000
	if testing.Short() {
		n = 2000
	}
	lon, lat := randomPoints(rng, n)
	const limit = 1000
	places := ix.SnapAll(lon, lat, math.Inf(1), 2)
	limited := ix.SnapAll(lon, lat, limit, 2)
	for i, p := range places {
		if !p.OK {
			t.Fatalf("point %d: %s", i, p.Reason)
		}
		if d := earth.Distance(lon[i], lat[i], p.Lon, p.Lat); math.Abs(d-p.DistanceM) > 1e-6 {
			t.Fatalf("point %d: DistanceM %.6f, but the position is %.6f m away", i, p.DistanceM, d)
		}
		checkOnArc(t, net, p)
		// The ingest's lengths are the arc's haversine sum, rounded.
		if length := arcLength(net, p.Arc); math.Abs(length-float64(osm.LengthM[p.Arc])) > 0.5+1e-6 {
			t.Fatalf("arc %d: %.3f m along its geometry, %d m in the ingest", p.Arc, length, osm.LengthM[p.Arc])
		}
		if l := limited[i]; l.OK != (p.DistanceM <= limit) || (l.OK && !samePlace(l, p)) {
			t.Fatalf("point %d at %.1f m with a limit of %d m: %+v", i, p.DistanceM, limit, l)
		}
	}
	if testing.Short() {
		return
	}
	for i := range 30 {
		p := places[i]
		want, _, _ := bruteNearest(net, lon[i], lat[i])
		if math.Abs(p.DistanceM-want) > 1e-6+1e-9*want {
			t.Errorf("point %d (%.7f, %.7f): %.6f m, brute force %.6f m", i, lon[i], lat[i], p.DistanceM, want)
		}
	}
}
