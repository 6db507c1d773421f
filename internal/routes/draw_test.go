package routes

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/results"
)

// TestDrawerDrawsWhatWriteLineWrites checks that a Drawer writes for
// every route the bytes and box WriteLine writes, and the totals of its
// arcs, on a random network with geometry, time and length, for runs of
// routes from one source: the source's tree paths (which share their
// starts), walks from the source that leave the tree and meet it again
// (whose vertices are on earlier routes behind other parents), the
// source alone, and runs cut by a new batch.
func TestDrawerDrawsWhatWriteLineWrites(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	const n = 200
	e := randomGraph(rng, n, 1200, 1, 4)
	vs, geo := randomPlaces(rng, e, 4)
	timeMS, lengthM := make([]int32, len(e.Src)), make([]int32, len(e.Src))
	for a := range e.Src {
		timeMS[a], lengthM[a] = rng.Int32N(100_000), rng.Int32N(5_000)
	}
	ix, err := NewIndex(Network{Edges: e, Vertices: vs, Geometry: geo, TimeMS: timeMS, LengthM: lengthM})
	if err != nil {
		t.Fatal(err)
	}
	out := outArcs(e)
	draw, err := ix.NewDrawer()
	if err != nil {
		t.Fatal(err)
	}
	tracer := NewTracer(ix, graph.BuildCSR(e))
	var batch []byte
	var batchNo int64
	drawn, copied := 0, 0
	for _, source := range []int32{0, 5, 5, 199, 0} {
		dist := exactDistances(e, source)
		rows := &results.Rows{Dist64: dist}
		for range 120 {
			var vertices []int32
			switch k := rng.IntN(10); {
			case k < 6: // a tree path
				var ok bool
				if vertices, _, ok = tracer.Path(nil, source, rng.Int32N(n), rows.Distances()); !ok {
					continue
				}
			case k < 9: // a walk, off the tree
				vertices = []int32{source}
				for v := source; len(vertices) < 1+rng.IntN(25) && len(out[v]) > 0; {
					v = e.Dst[out[v][rng.IntN(len(out[v]))]]
					vertices = append(vertices, v)
				}
			default:
				vertices = []int32{source}
			}
			if rng.IntN(40) == 0 {
				batch, batchNo = batch[:0], batchNo+1
			}
			arcs, ok := ix.Arcs(nil, vertices)
			if !ok {
				t.Fatalf("route %v: no arcs", vertices)
			}
			want := make([]byte, 16*ix.LinePoints(vertices, arcs))
			wantBox, err := ix.WriteLine(want, vertices, arcs)
			if err != nil {
				t.Fatal(err)
			}
			wantTime, wantLength := ix.Totals(arcs)
			gotTime, gotLength, points, err := draw.Route(batchNo, vertices)
			if err != nil {
				t.Fatal(err)
			}
			if gotTime != wantTime || gotLength != wantLength || points*16 != len(want) {
				t.Fatalf("route %v: time %d, length %d, %d points; want %d, %d, %d", vertices, gotTime, gotLength, points, wantTime, wantLength, len(want)/16)
			}
			// A header between routes, as a batch of WKB has.
			batch = append(batch, make([]byte, 9)...)
			at := len(batch)
			batch = append(batch, make([]byte, len(want))...)
			box, err := draw.Fill(batch, at)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(batch[at:], want) || box != wantBox {
				t.Fatalf("route %v: line or box %+v differ from WriteLine's (%+v)", vertices, box, wantBox)
			}
			drawn++
			if draw.shared > 1 {
				copied++
			}
		}
	}
	if copied < drawn/3 {
		t.Fatalf("%d of %d routes copied a shared start: the test exercises little", copied, drawn)
	}
	for v := range int32(n) {
		if ix.Arc(0, v) == NoArc {
			if _, _, _, err := draw.Route(batchNo, []int32{0, v}); err == nil {
				t.Errorf("a route along 0 -> %d, which no arc joins, was drawn", v)
			}
			break
		}
	}
	if _, err := (&Index{net: Network{Edges: e}}).NewDrawer(); err == nil {
		t.Error("a network without vertex positions got a Drawer")
	}
}
