package places

import (
	"fmt"
	"math"
	"testing"

	"github.com/pathflow/pathflow/internal/earth"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/internal/routes"
	"github.com/pathflow/pathflow/internal/snap"
	"github.com/pathflow/pathflow/internal/tables"
)

// bentRoad is a two-way road of three vertices on the equator, 0 at
// longitude 0, 1 at 0.002 and 2 at 0.003 degree; the stretch from 0 to
// 1 bends through (0.001, 0.001). Weights are travel times in ms, 2000
// and 1000 each way; lengths the metres along the geometry, rounded.
func bentRoad(t *testing.T) (*snap.Index, *routes.Index, *graph.EdgeList) {
	t.Helper()
	u := func(deg float64) int32 { return int32(math.Round(deg * graph.UnitsPerDegree)) }
	vs := &graph.Vertices{X: []int32{0, u(0.002), u(0.003)}, Y: []int32{0, 0, 0}, Geographic: true}
	e := &graph.EdgeList{N: 3, Src: []int32{0, 1, 1, 2}, Dst: []int32{1, 0, 2, 1}, Weight: []int32{2000, 2000, 1000, 1000}}
	geo := tables.ArcGeometry{Offsets: []int64{0, 1, 2, 2, 2}, X: []int32{u(0.001), u(0.001)}, Y: []int32{u(0.001), u(0.001)}}
	bend := earth.Distance(0, 0, 0.001, 0.001) + earth.Distance(0.001, 0.001, 0.002, 0)
	straight := earth.Distance(0.002, 0, 0.003, 0)
	lengths := []int32{int32(math.Round(bend)), int32(math.Round(bend)), int32(math.Round(straight)), int32(math.Round(straight))}
	sx, err := snap.NewIndex(snap.Network{Vertices: vs, Edges: e, Geometry: geo}, 1)
	if err != nil {
		t.Fatal(err)
	}
	rx, err := routes.NewIndex(routes.Network{Edges: e, Vertices: vs, Geometry: geo, TimeMS: e.Weight, LengthM: lengths})
	if err != nil {
		t.Fatal(err)
	}
	return sx, rx, e
}

// bentRoadDistances are the exact distances from each vertex of bentRoad.
var bentRoadDistances = map[int32][]int64{0: {0, 2000, 3000}, 1: {2000, 0, 1000}, 2: {3000, 1000, 0}}

// routeOf chooses the route of the trip from p to q by offering its
// seeds' rows in order (or in reverse), and reads the vertex path off
// the hand-made distances: on bentRoad every path is the run of vertices
// between its ends.
func routeOf(p, q *snap.Place, reversed bool) TripRoute {
	r := NewTripRoute()
	for k := range p.Out {
		if reversed {
			k = len(p.Out) - 1 - k
		}
		row := (&results.Rows{Dist64: bentRoadDistances[p.Out[k].Vertex]}).Distances()
		if r.Offer(p, q, k, row) {
			r.Vertices = nil
			from, to := p.Out[k].Vertex, q.In[r.To].Vertex
			for v := from; ; v += sign(to - from) {
				r.Vertices = append(r.Vertices, v)
				if v == to {
					break
				}
			}
		}
	}
	r.Finish(p, q)
	return r
}

func sign(x int32) int32 {
	switch {
	case x < 0:
		return -1
	case x > 0:
		return 1
	}
	return 0
}

// TestTripRouteOnABentRoad lays out routes between places on bentRoad
// and checks each against the points and times worked out by hand: the
// line turns at the bend the place lies before, passes through the
// vertices between, and ends at the destination's snapped position; the
// trip's weight is the PairCombiner's for the same trip whatever order
// the seed rows come in; the time is the weight, the length the pieces'
// shares of the arcs' lengths; two places on the bent stretch are joined
// along it, both ways.
func TestTripRouteOnABentRoad(t *testing.T) {
	sx, rx, _ := bentRoad(t)
	p := sx.Snap(0.0005, 0.0006, 100)  // on the bent stretch, before the bend
	q := sx.Snap(0.0025, 0.0001, 100)  // on the straight stretch
	p2 := sx.Snap(0.0015, 0.0006, 100) // on the bent stretch, after the bend
	off := sx.Snap(0.5, 0.5, 100)      // too far
	for _, pl := range []*snap.Place{&p, &q, &p2} {
		if !pl.OK {
			t.Fatalf("a place did not snap: %s", pl.Reason)
		}
	}
	type pt struct{ lon, lat float64 }
	for _, c := range []struct {
		name   string
		p, q   *snap.Place
		points []pt // between the two positions
	}{
		{"across the vertex", &p, &q, []pt{{0.001, 0.001}, {0.002, 0}}},
		{"back across it", &q, &p, []pt{{0.002, 0}, {0.001, 0.001}}},
		{"along the bend", &p, &p2, []pt{{0.001, 0.001}}},
		{"back along the bend", &p2, &p, []pt{{0.001, 0.001}}},
		{"to itself", &p, &p, nil},
	} {
		want := pairAnswer(t, c.p, c.q)
		for _, reversed := range []bool{false, true} {
			r := routeOf(c.p, c.q, reversed)
			if r.Weight != want {
				t.Fatalf("%s: weight %d, the combiner's %d", c.name, r.Weight, want)
			}
			line := NewRouteLine(rx)
			timeMS, lengthM, err := line.Trace(&r, c.p, c.q)
			if err != nil {
				t.Fatal(err)
			}
			wantLine := append(append([]pt{{c.p.Lon, c.p.Lat}}, c.points...), pt{c.q.Lon, c.q.Lat})
			if c.p == c.q {
				wantLine = wantLine[:1]
			}
			var got []pt
			for k := range line.Lon {
				got = append(got, pt{line.Lon[k], line.Lat[k]})
			}
			if fmt.Sprint(got) != fmt.Sprint(wantLine) {
				t.Errorf("%s: line %v, want %v", c.name, got, wantLine)
			}
			geodesic := 0.0
			for k := 1; k < len(got); k++ {
				geodesic += earth.Distance(got[k-1].lon, got[k-1].lat, got[k].lon, got[k].lat)
			}
			if timeMS != r.Weight || math.Abs(float64(lengthM)-geodesic) > 1.5 {
				t.Errorf("%s: time %d, length %d; weight %d, line %.2f m", c.name, timeMS, lengthM, r.Weight, geodesic)
			}
		}
	}
	if r := routeOf(&off, &q, false); r.Weight != NoPath || r.From != -1 {
		t.Errorf("a trip from a place that did not snap has the route %+v", r)
	}
}

// pairAnswer is the PairCombiner's answer for the trip from p to q on
// bentRoad, its seed rows given whole.
func pairAnswer(t *testing.T, p, q *snap.Place) int64 {
	t.Helper()
	origins, destinations := []snap.Place{*p}, []snap.Place{*q}
	seeds := PairSeedsOf(origins, destinations)
	c := NewPairCombiner(origins, destinations, seeds, nil, 1)
	if len(seeds.Sources) > 0 {
		rows := &results.Rows{Sources: seeds.Sources, Offsets: []int{0}}
		for k, s := range seeds.Sources {
			for _, v := range seeds.Targets[k] {
				rows.Dist64 = append(rows.Dist64, bentRoadDistances[s][v])
			}
			rows.Offsets = append(rows.Offsets, len(rows.Dist64))
		}
		if err := c.Put(rows); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	return c.Answers().Weights[0]
}
