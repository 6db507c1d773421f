package generate

import (
	"testing"

	"github.com/pathflow/pathflow/internal/graph"
)

func TestRoadShape(t *testing.T) {
	for _, seed := range seeds(t) {
		for _, side := range []int32{1, 2, 3, 17, 130} {
			e, vs, err := Road(side, seed)
			if err != nil {
				t.Fatal(err)
			}
			if err := e.Validate(); err != nil {
				t.Fatal(err)
			}
			if e.N != side*side || len(vs.X) != int(e.N) || len(vs.Y) != int(e.N) {
				t.Fatalf("side %d: %d vertices, %d coordinates", side, e.N, len(vs.X))
			}
			if !reachesAll(graph.BuildCSR(e)) {
				t.Errorf("side %d seed %d: not connected", side, seed)
			}
			// Every arc has its reverse with the same weight, between grid
			// neighbours, of a plausible travel time.
			arcs := make(map[[2]int32]int32, e.M())
			for i := range e.M() {
				arcs[[2]int32{e.Src[i], e.Dst[i]}] = e.Weight[i]
			}
			for i := range e.M() {
				u, v, w := e.Src[i], e.Dst[i], e.Weight[i]
				if back, ok := arcs[[2]int32{v, u}]; !ok || back != w {
					t.Fatalf("side %d: arc %d->%d (%d) has no reverse of equal weight", side, u, v, w)
				}
				if d := u - v; d != 1 && d != -1 && d != side && d != -side {
					t.Fatalf("side %d: arc %d->%d joins no grid neighbours", side, u, v)
				}
				if w < 1 || w > 2*(RoadSpacing+2*RoadJitter)*36*100/(24*10) {
					t.Fatalf("side %d: arc %d->%d has weight %d", side, u, v, w)
				}
			}
			if side >= 130 {
				if perVertex := float64(e.M()) / float64(e.N); perVertex < 2.4 || perVertex > 2.8 {
					t.Errorf("side %d: %.3f arcs per vertex, want 2.4..2.8", side, perVertex)
				}
			}
		}
	}
}

// TestRoadHierarchy checks that highways are faster than local streets:
// the mean weight of arcs along highway rows is below that of local rows.
func TestRoadHierarchy(t *testing.T) {
	const side = 200
	e, _, err := Road(side, 3)
	if err != nil {
		t.Fatal(err)
	}
	var sum, count [3]int64
	for i := range e.M() {
		u, v := e.Src[i], e.Dst[i]
		if v != u+1 {
			continue // rightward arcs only: their row is their line
		}
		row := u / side
		class := 0
		switch {
		case row%RoadHighwayEvery == RoadHighwayEvery/2:
			class = 2
		case row%RoadArterialEvery == RoadArterialEvery/2:
			class = 1
		}
		sum[class] += int64(e.Weight[i])
		count[class]++
	}
	if count[0] == 0 || count[1] == 0 || count[2] == 0 {
		t.Fatalf("arcs per class %v", count)
	}
	mean := func(c int) int64 { return sum[c] / count[c] }
	if !(mean(2) < mean(1) && mean(1) < mean(0)) {
		t.Errorf("mean weights local %d, arterial %d, highway %d: want decreasing", mean(0), mean(1), mean(2))
	}
	// Arterials and highways are never removed: side 200 has highway rows
	// 32, 96 and 160 and 25 arterial rows (4, 12, ..., 196).
	if count[2] != 3*(side-1) || count[1] != 25*(side-1) {
		t.Errorf("rightward arcs: %d on the highway row, %d on arterial rows", count[2], count[1])
	}
}

func TestRoadDeterministic(t *testing.T) {
	a, _, _ := Road(50, 9)
	b, _, _ := Road(50, 9)
	c, _, _ := Road(50, 10)
	if !equalEdgeLists(a, b) {
		t.Error("same seed, different graphs")
	}
	if equalEdgeLists(a, c) {
		t.Error("different seeds, same graph")
	}
}

func TestParseRoadSpec(t *testing.T) {
	for _, c := range []struct {
		args string
		want RoadSpec
	}{
		{"", RoadSpec{Side: 1024, Seed: 1, Local: RoadExtraLocal}},
		{"side=4", RoadSpec{Side: 4, Seed: 1, Local: RoadExtraLocal}},
		{"seed=7, side=300", RoadSpec{Side: 300, Seed: 7, Local: RoadExtraLocal}},
		{"local=0.75,side=9", RoadSpec{Side: 9, Seed: 1, Local: 0.75}},
	} {
		got, err := ParseRoadSpec(c.args)
		if err != nil || got != c.want {
			t.Errorf("%q: %+v, %v; want %+v", c.args, got, err, c.want)
		}
	}
	if s := (RoadSpec{Side: 8, Seed: 2, Local: RoadExtraLocal}).String(); s != "road:seed=2,side=8" {
		t.Errorf("canonical spec %q", s)
	}
	if s := (RoadSpec{Side: 8, Seed: 2, Local: 0.75}).String(); s != "road:local=0.75,seed=2,side=8" {
		t.Errorf("canonical spec %q", s)
	}
	for _, bad := range []string{"side=0", "side=x", "side=46341", "seed=-1", "width=3", "side", "local=1.5", "local=-0.1"} {
		if _, err := ParseRoadSpec(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	if _, _, err := Road(0, 1); err == nil {
		t.Error("side 0: no error")
	}
}

// TestRoadLocalSetsTheDensity checks that keeping more local streets gives
// a denser graph, still connected and symmetric, and that the default
// share gives exactly Road's graph.
func TestRoadLocalSetsTheDensity(t *testing.T) {
	plain, _, err := Road(200, 3)
	if err != nil {
		t.Fatal(err)
	}
	same, _, err := RoadOf(RoadSpec{Side: 200, Seed: 3, Local: RoadExtraLocal})
	if err != nil || !equalEdgeLists(plain, same) {
		t.Fatalf("the default share gives another graph (%v)", err)
	}
	dense, _, err := RoadOf(RoadSpec{Side: 200, Seed: 3, Local: 0.75})
	if err != nil {
		t.Fatal(err)
	}
	perVertex := func(e *graph.EdgeList) float64 { return float64(e.M()) / float64(e.N) }
	if p, d := perVertex(plain), perVertex(dense); p < 2.3 || p > 2.7 || d < 3.3 || d > 3.7 {
		t.Fatalf("arcs per vertex %.2f at the default share, %.2f at 0.75", p, d)
	}
}
