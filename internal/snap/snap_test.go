package snap

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/internal/earth"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/tables"
)

// On the equator a degree of longitude, and anywhere a degree of
// latitude, is earth.MetresPerDegree long (haversine is exact along both), so
// the hand computations below need no trigonometry.
const milli = 1e-3 // degree

// units converts degrees to the stored 10^-7 degree.
func units(deg float64) int32 { return int32(math.Round(deg * graph.UnitsPerDegree)) }

// arc is one arc of a hand-made network: tail, head, weight and the
// intermediate points (lon, lat pairs in degrees).
type arc struct {
	u, v, w int32
	via     [][2]float64
}

// network builds a network over vertices at the given (lon, lat)
// degrees.
func network(coords [][2]float64, arcs []arc) Network {
	vs := &graph.Vertices{Geographic: true}
	for _, c := range coords {
		vs.X = append(vs.X, units(c[0]))
		vs.Y = append(vs.Y, units(c[1]))
	}
	edges := graph.NewEdgeList(int32(len(coords)), len(arcs))
	geometry := tables.ArcGeometry{Offsets: []int64{0}}
	for _, a := range arcs {
		edges.Add(a.u, a.v, a.w)
		for _, p := range a.via {
			geometry.X = append(geometry.X, units(p[0]))
			geometry.Y = append(geometry.Y, units(p[1]))
		}
		geometry.Offsets = append(geometry.Offsets, int64(len(geometry.X)))
	}
	return Network{Vertices: vs, Edges: edges, Geometry: geometry}
}

func mustIndex(t *testing.T, net Network) *Index {
	t.Helper()
	ix, err := NewIndex(net, 2)
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

// near reports whether two lengths in metres agree to a millimetre.
func near(a, b float64) bool { return math.Abs(a-b) < 1e-3 }

// checkPlace compares a snapped place with the hand-computed answer.
func checkPlace(t *testing.T, what string, got Place, lon, lat, distanceM float64, arc int32, alongM float64, out, in []Seed) {
	t.Helper()
	if !got.OK {
		t.Fatalf("%s: not snapped: %s", what, got.Reason)
	}
	if math.Abs(got.Lon-lon) > 1e-9 || math.Abs(got.Lat-lat) > 1e-9 {
		t.Errorf("%s: snapped to (%.9f, %.9f), want (%.9f, %.9f)", what, got.Lon, got.Lat, lon, lat)
	}
	if !near(got.DistanceM, distanceM) {
		t.Errorf("%s: DistanceM %.4f, want %.4f", what, got.DistanceM, distanceM)
	}
	if got.Arc != arc || !near(got.AlongM, alongM) {
		t.Errorf("%s: on arc %d at %.4f m, want arc %d at %.4f m", what, got.Arc, got.AlongM, arc, alongM)
	}
	if !slices.Equal(got.Out, out) || !slices.Equal(got.In, in) {
		t.Errorf("%s: Out %v In %v, want Out %v In %v", what, got.Out, got.In, out, in)
	}
}

// street is a straight street 2 milli-degrees long (222.39 m) along the
// equator from vertex 0 to vertex 1: arc 0 east with weight 1000 and, when
// twoWay, arc 1 west with weight 2000 (so the seeds show which arc's
// weight each piece took).
func street(twoWay bool) Network {
	arcs := []arc{{u: 0, v: 1, w: 1000}}
	if twoWay {
		arcs = append(arcs, arc{u: 1, v: 0, w: 2000})
	}
	return network([][2]float64{{0, 0}, {2 * milli, 0}}, arcs)
}

func TestTwoWayStreet(t *testing.T) {
	ix := mustIndex(t, street(true))
	if ix.Stretches() != 1 || ix.Segments() != 1 {
		t.Fatalf("%d stretches and %d segments, want the two arcs as one stretch of one segment", ix.Stretches(), ix.Segments())
	}
	// 10 m north of the middle: half of each arc either way.
	p := ix.Snap(1*milli, 0.1*milli, 500)
	checkPlace(t, "middle", p, 1*milli, 0, 0.1*milli*earth.MetresPerDegree, 0, 1*milli*earth.MetresPerDegree,
		[]Seed{{1, 500}, {0, 1000}}, []Seed{{0, 500}, {1, 1000}})
	// South of the quarter: east to vertex 1 is 3/4 of arc 0, west to
	// vertex 0 is 1/4 of arc 1; arriving from vertex 0 along arc 0 is 1/4
	// of it, from vertex 1 along arc 1 3/4.
	p = ix.Snap(0.5*milli, -0.2*milli, 500)
	checkPlace(t, "quarter", p, 0.5*milli, 0, 0.2*milli*earth.MetresPerDegree, 0, 0.5*milli*earth.MetresPerDegree,
		[]Seed{{1, 750}, {0, 500}}, []Seed{{0, 250}, {1, 1500}})
}

func TestOneWayStreet(t *testing.T) {
	ix := mustIndex(t, street(false))
	p := ix.Snap(1*milli, 0.1*milli, 500)
	checkPlace(t, "middle", p, 1*milli, 0, 0.1*milli*earth.MetresPerDegree, 0, 1*milli*earth.MetresPerDegree,
		[]Seed{{1, 500}}, []Seed{{0, 500}})
}

func TestPointOnVertex(t *testing.T) {
	for _, twoWay := range []bool{false, true} {
		ix := mustIndex(t, street(twoWay))
		checkPlace(t, "on the tail", ix.Snap(0, 0, 500), 0, 0, 0, 0, 0, []Seed{{0, 0}}, []Seed{{0, 0}})
		checkPlace(t, "on the head", ix.Snap(2*milli, 0, 500), 2*milli, 0, 0, 0, 2*milli*earth.MetresPerDegree,
			[]Seed{{1, 0}}, []Seed{{1, 0}})
		// Beyond the dead end the projection is the vertex itself.
		checkPlace(t, "past the head", ix.Snap(3*milli, 0, 500), 2*milli, 0, 1*milli*earth.MetresPerDegree, 0, 2*milli*earth.MetresPerDegree,
			[]Seed{{1, 0}}, []Seed{{1, 0}})
	}
}

func TestBeyondSnapDistance(t *testing.T) {
	ix := mustIndex(t, street(true))
	// 7.3 milli-degrees north: 811.73 m, within twice the limit, so the
	// reason says how far the road is; 10 milli-degrees: 1111.95 m.
	for _, c := range []struct {
		north  float64
		reason string
	}{{7.3, "beyond the snap distance (812 m > 500 m)"}, {10, "no road within 1000 m"}} {
		p := ix.Snap(1*milli, c.north*milli, 500)
		if p.OK || p.Arc != -1 || p.Out != nil || p.In != nil {
			t.Fatalf("a point %g milli-degrees away snapped with a limit of 500 m: %+v", c.north, p)
		}
		if p.Reason != c.reason {
			t.Errorf("reason %q, want %q", p.Reason, c.reason)
		}
	}
	if p := ix.Snap(1*milli, 0.3*milli, 33.36); !p.OK {
		t.Errorf("a point 33.358 m away with a limit of 33.36 m: %s", p.Reason)
	}
	if p := ix.Snap(1*milli, 0.3*milli, 30); p.OK || p.Reason != "beyond the snap distance (33.4 m > 30.0 m)" {
		t.Errorf("a point 33.358 m away with a limit of 30 m: %+v", p)
	}
	if p := ix.Snap(1*milli, 10*milli, math.Inf(1)); !p.OK || !near(p.DistanceM, 10*milli*earth.MetresPerDegree) {
		t.Errorf("without a limit: %+v", p)
	}
	for _, c := range [][2]float64{{math.NaN(), 0}, {0, math.NaN()}} {
		if p := ix.Snap(c[0], c[1], 500); p.OK || p.Reason != "no coordinates" {
			t.Errorf("(%g, %g): %+v", c[0], c[1], p)
		}
	}
	if p := ix.Snap(181, 0, 500); p.OK || !strings.HasPrefix(p.Reason, "coordinates out of range") {
		t.Errorf("longitude 181: %+v", p)
	}
	empty := mustIndex(t, network([][2]float64{{0, 0}}, nil))
	if p := empty.Snap(0, 0, 500); p.OK || p.Reason != "no road in the network" {
		t.Errorf("no arcs: %+v", p)
	}
}

// bent is an arc from vertex 0 at (0, 0) east to (2, 0) milli-degrees,
// then north to vertex 1 at (2, 2): 444.78 m in all, weight 4000.
func bent() Network {
	return network([][2]float64{{0, 0}, {2 * milli, 2 * milli}},
		[]arc{{u: 0, v: 1, w: 4000, via: [][2]float64{{2 * milli, 0}}}})
}

func TestBentArc(t *testing.T) {
	ix := mustIndex(t, bent())
	if ix.Segments() != 2 {
		t.Fatalf("%d segments, want 2", ix.Segments())
	}
	// East of the northward leg, a quarter of the way up it: 5/8 of the
	// arc lies behind, 3/8 ahead. The frame's metres per degree of
	// longitude at latitude 0.5 milli-degrees differ from the equator's
	// by 4e-11.
	p := ix.Snap(2.1*milli, 0.5*milli, 500)
	checkPlace(t, "north leg", p, 2*milli, 0.5*milli, 0.1*milli*earth.MetresPerDegree, 0, 2.5*milli*earth.MetresPerDegree,
		[]Seed{{1, 1500}}, []Seed{{0, 2500}})
	// South of the eastward leg's middle: 1/4 behind.
	p = ix.Snap(1*milli, -0.3*milli, 500)
	checkPlace(t, "east leg", p, 1*milli, 0, 0.3*milli*earth.MetresPerDegree, 0, 1*milli*earth.MetresPerDegree,
		[]Seed{{1, 3000}}, []Seed{{0, 1000}})
	// Inside the bend, nearer the northward leg (0.4 < 0.5 milli-degrees
	// away): the projection must not fall on the nearer-by-endpoint leg.
	p = ix.Snap(1.6*milli, 0.5*milli, 500)
	checkPlace(t, "inside the bend", p, 2*milli, 0.5*milli, 0.4*milli*earth.MetresPerDegree, 0, 2.5*milli*earth.MetresPerDegree,
		[]Seed{{1, 1500}}, []Seed{{0, 2500}})
}

// TestTwins checks which arcs make one stretch: reverse arcs with reversed
// geometry do; a reverse arc along another way, and a parallel arc, do
// not.
func TestTwins(t *testing.T) {
	corner := [][2]float64{{2 * milli, 0}}
	other := [][2]float64{{0, 2 * milli}}
	coords := [][2]float64{{0, 0}, {2 * milli, 2 * milli}}
	for _, c := range []struct {
		name      string
		arcs      []arc
		stretches int
		twin      []int32
	}{
		{"reversed geometry", []arc{{0, 1, 10, corner}, {1, 0, 10, corner}}, 1, []int32{1, 0}},
		{"other way back", []arc{{0, 1, 10, corner}, {1, 0, 10, other}}, 2, []int32{-1, -1}},
		{"parallel", []arc{{0, 1, 10, corner}, {0, 1, 10, corner}}, 2, []int32{-1, -1}},
		{"parallel and back", []arc{{0, 1, 10, other}, {0, 1, 10, corner}, {1, 0, 10, corner}}, 2, []int32{-1, 2, 1}},
		{"straight", []arc{{0, 1, 10, nil}, {1, 0, 10, nil}, {1, 0, 10, nil}}, 2, []int32{1, 0, -1}},
	} {
		net := network(coords, c.arcs)
		if got := twins(net.Edges, net.Geometry); !slices.Equal(got, c.twin) {
			t.Errorf("%s: twins %v, want %v", c.name, got, c.twin)
		}
		if ix := mustIndex(t, net); ix.Stretches() != c.stretches {
			t.Errorf("%s: %d stretches, want %d", c.name, ix.Stretches(), c.stretches)
		}
	}
}

// TestTwinSeeds puts a point on a two-way street with geometry, whose
// stretch is indexed in the direction of arc 0 though arc 1 is listed
// first in the end-pair group, and on a parallel arc of its own.
func TestTwinSeeds(t *testing.T) {
	net := network([][2]float64{{0, 0}, {2 * milli, 2 * milli}}, []arc{
		{u: 1, v: 0, w: 4000, via: [][2]float64{{2 * milli, 0}}},
		{u: 0, v: 1, w: 8000, via: [][2]float64{{2 * milli, 0}}},
		{u: 0, v: 1, w: 100, via: [][2]float64{{0, 2 * milli}}},
	})
	ix := mustIndex(t, net)
	// Arc 0 runs from vertex 1 south, then west; the point lies a quarter
	// of the way along it.
	p := ix.Snap(2.1*milli, 1*milli, 500)
	checkPlace(t, "two-way", p, 2*milli, 1*milli, 0.1*milli*earth.MetresPerDegree, 0, 1*milli*earth.MetresPerDegree,
		[]Seed{{0, 3000}, {1, 2000}}, []Seed{{1, 1000}, {0, 6000}})
	p = ix.Snap(-0.1*milli, 1*milli, 500)
	checkPlace(t, "parallel", p, 0, 1*milli, 0.1*milli*earth.MetresPerDegree, 2, 1*milli*earth.MetresPerDegree,
		[]Seed{{1, 75}}, []Seed{{0, 25}})
}

func TestDirect(t *testing.T) {
	two := mustIndex(t, street(true))
	a, b := two.Snap(0.5*milli, 0.1*milli, 500), two.Snap(1.5*milli, -0.1*milli, 500)
	// Half the street: half of arc 0 (1000) east, half of arc 1 (2000)
	// west.
	for _, c := range []struct {
		name     string
		from, to Place
		want     int64
	}{{"east", a, b, 500}, {"west", b, a, 1000}, {"still", a, a, 0}} {
		if w, ok := Direct(&c.from, &c.to); !ok || w != c.want {
			t.Errorf("two-way %s: %d %v, want %d", c.name, w, ok, c.want)
		}
	}
	one := mustIndex(t, street(false))
	a, b = one.Snap(0.5*milli, 0.1*milli, 500), one.Snap(1.5*milli, -0.1*milli, 500)
	if w, ok := Direct(&a, &b); !ok || w != 500 {
		t.Errorf("one-way forward: %d %v, want 500", w, ok)
	}
	if w, ok := Direct(&b, &a); ok {
		t.Errorf("one-way backward: %d, want none", w)
	}
	// Along the bent arc, across the corner: 2.5 - 1 of 4 milli-degrees.
	bend := mustIndex(t, bent())
	a, b = bend.Snap(1*milli, -0.3*milli, 500), bend.Snap(2.1*milli, 0.5*milli, 500)
	if w, ok := Direct(&a, &b); !ok || w != 1500 {
		t.Errorf("bent arc: %d %v, want 1500", w, ok)
	}
	// Different stretches, and a place not snapped.
	par := mustIndex(t, network([][2]float64{{0, 0}, {2 * milli, 0}}, []arc{{0, 1, 10, nil}, {0, 1, 10, [][2]float64{{1 * milli, 1 * milli}}}}))
	a, b = par.Snap(0.5*milli, -0.1*milli, 500), par.Snap(1*milli, 1.1*milli, 500)
	if a.Arc == b.Arc {
		t.Fatalf("both places on arc %d", a.Arc)
	}
	if w, ok := Direct(&a, &b); ok {
		t.Errorf("parallel arcs: %d, want none", w)
	}
	elsewhere := one.Snap(1*milli, 20*milli, 500)
	if w, ok := Direct(&a, &elsewhere); ok {
		t.Errorf("to a place not snapped: %d, want none", w)
	}
}

func TestNewIndexRefuses(t *testing.T) {
	good := street(true)
	flat := good
	flat.Vertices = &graph.Vertices{X: good.Vertices.X, Y: good.Vertices.Y}
	short := good
	short.Geometry.Offsets = []int64{0, 0}
	bad := good
	bad.Edges = &graph.EdgeList{N: 2, Src: []int32{0}, Dst: []int32{2}, Weight: []int32{1}}
	for name, net := range map[string]Network{"not geographic": flat, "geometry of one arc": short, "bad arc": bad, "no arcs": {Vertices: good.Vertices}} {
		if _, err := NewIndex(net, 1); err == nil {
			t.Errorf("%s: indexed", name)
		}
	}
	straight := good
	straight.Geometry = tables.ArcGeometry{}
	if _, err := NewIndex(straight, 1); err != nil {
		t.Errorf("without geometry: %v", err)
	}
}
