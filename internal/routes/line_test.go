package routes

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/pathflow/pathflow/internal/geoparquet"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/tables"
)

// TestWriteLineWritesPoints checks that WriteLine writes for a route the
// encoding of the points Points gives, LinePoints of them, and that its
// box is theirs in degrees, on a random network whose
// arcs have 0 to 4 intermediate points, for random walks along its arcs
// (one vertex alone included).
func TestWriteLineWritesPoints(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	const n = 60
	e := randomGraph(rng, n, 400, 1, 5)
	vs, geo := randomPlaces(rng, e, 5)
	ix, err := NewIndex(Network{Edges: e, Vertices: vs, Geometry: geo})
	if err != nil {
		t.Fatal(err)
	}
	out := outArcs(e) // for the walks
	for walk := range 200 {
		v := rng.Int32N(n)
		vertices := []int32{v}
		for range walk % 30 {
			if len(out[v]) == 0 {
				break
			}
			v = e.Dst[out[v][rng.IntN(len(out[v]))]]
			vertices = append(vertices, v)
		}
		arcs, ok := ix.Arcs(nil, vertices)
		if !ok {
			t.Fatalf("walk %v: no arcs", vertices)
		}
		x, y := ix.Points(nil, nil, vertices, arcs)
		want, err := geoparquet.AppendCoordsUnits(nil, x, y, graph.UnitsPerDegree)
		if err != nil {
			t.Fatal(err)
		}
		if points := ix.LinePoints(vertices, arcs); points != len(x) {
			t.Fatalf("walk %v: %d points, Points gives %d", vertices, points, len(x))
		}
		got := make([]byte, len(want))
		box, err := ix.WriteLine(got, vertices, arcs)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("walk %v: %d bytes written differ from the encoding of its points", vertices, len(got))
		}
		if _, err := ix.WriteLine(make([]byte, len(want)+16), vertices, arcs); err == nil {
			t.Fatalf("walk %v: written into room for a point more without an error", vertices)
		}
		wantBox := geoparquet.Box{XMin: 1e9, YMin: 1e9, XMax: -1e9, YMax: -1e9}
		for i := range x {
			lon, lat := float64(x[i])/graph.UnitsPerDegree, float64(y[i])/graph.UnitsPerDegree
			wantBox = geoparquet.Box{XMin: min(wantBox.XMin, lon), YMin: min(wantBox.YMin, lat), XMax: max(wantBox.XMax, lon), YMax: max(wantBox.YMax, lat)}
		}
		if box != wantBox {
			t.Fatalf("walk %v: box %+v, want %+v", vertices, box, wantBox)
		}
	}
	if _, err := (&Index{net: Network{Edges: e}}).WriteLine(make([]byte, 16), []int32{0}, nil); err == nil {
		t.Error("a network without vertex positions drew a line")
	}
}

// randomPlaces places the vertices of e at random in a box of two degrees
// (fixed point, 10^-7 degrees) and gives each arc 0 to maxPoints-1
// intermediate points in it.
func randomPlaces(rng *rand.Rand, e *graph.EdgeList, maxPoints int) (*graph.Vertices, tables.ArcGeometry) {
	point := func() (int32, int32) {
		return -755_000_000 + rng.Int32N(2_000_000), 390_000_000 + rng.Int32N(2_000_000)
	}
	vs := &graph.Vertices{X: make([]int32, e.N), Y: make([]int32, e.N)}
	for v := range e.N {
		vs.X[v], vs.Y[v] = point()
	}
	geo := tables.ArcGeometry{Offsets: []int64{0}}
	for range e.Src {
		for range rng.IntN(maxPoints) {
			x, y := point()
			geo.X, geo.Y = append(geo.X, x), append(geo.Y, y)
		}
		geo.Offsets = append(geo.Offsets, int64(len(geo.X)))
	}
	return vs, geo
}

// outArcs lists the arcs of e by tail.
func outArcs(e *graph.EdgeList) [][]int32 {
	out := make([][]int32, e.N)
	for a, u := range e.Src {
		out[u] = append(out[u], int32(a))
	}
	return out
}
