package paths

import (
	"testing"

	"github.com/pathflow/pathflow/internal/graph"
)

// TestMayLoop: only a directed cycle of arcs of weight 0 (keyed: weight
// and metric 0) between distinct vertices, or a negative weight, may
// close a cycle of parent choices; a zero self-loop, zero arcs in a line
// or in a fork, and a zero cycle broken by a metric may not.
func TestMayLoop(t *testing.T) {
	type arc struct{ u, v, w, m int32 }
	cases := []struct {
		name         string
		arcs         []arc
		plain, keyed bool
	}{
		{"no zero arc", []arc{{0, 1, 1, 0}, {1, 0, 2, 0}}, false, false},
		{"a zero self-loop", []arc{{0, 1, 1, 1}, {1, 1, 0, 0}}, false, false},
		{"zero arcs in a line and a fork", []arc{{0, 1, 0, 0}, {1, 2, 0, 0}, {0, 2, 0, 0}, {2, 3, 1, 1}, {3, 0, 1, 1}}, false, false},
		{"a zero two-way segment", []arc{{0, 1, 0, 0}, {1, 0, 0, 0}}, true, true},
		{"a zero ring of three", []arc{{0, 1, 0, 0}, {1, 2, 0, 0}, {2, 0, 0, 0}, {2, 3, 0, 0}}, true, true},
		{"a zero ring with a metric on one arc", []arc{{0, 1, 0, 0}, {1, 2, 0, 5}, {2, 0, 0, 0}}, true, false},
		{"a negative weight", []arc{{0, 1, -1, 0}}, true, true},
	}
	for _, c := range cases {
		e := graph.NewEdgeList(4, len(c.arcs))
		for _, a := range c.arcs {
			e.Add(a.u, a.v, a.w)
			e.Metric = append(e.Metric, a.m)
		}
		g := graph.BuildCSR(e)
		if got := MayLoop(g, false); got != c.plain {
			t.Errorf("%s: MayLoop %v, want %v", c.name, got, c.plain)
		}
		if got := MayLoop(g, true); got != c.keyed {
			t.Errorf("%s, keyed: MayLoop %v, want %v", c.name, got, c.keyed)
		}
	}
}

// TestEdgesMayLoop: an arc list may loop where arcs of weight zero close
// a cycle, loops of one arc aside, or with negative weights; a network
// that may not is one whose paths a reader may walk back one by one.
func TestEdgesMayLoop(t *testing.T) {
	for _, c := range []struct {
		name string
		arcs [][3]int32
		want bool
	}{
		{"positive", [][3]int32{{0, 1, 1}, {1, 0, 1}}, false},
		{"a chain of zeros", [][3]int32{{0, 1, 0}, {1, 2, 0}, {2, 0, 5}, {0, 2, 0}}, false},
		{"a loop of weight zero", [][3]int32{{1, 1, 0}, {0, 1, 0}}, false},
		{"a cycle of zeros", [][3]int32{{0, 1, 0}, {1, 2, 0}, {2, 1, 0}}, true},
		{"a negative weight", [][3]int32{{0, 1, -1}}, true},
	} {
		e := graph.NewEdgeList(3, len(c.arcs))
		for _, a := range c.arcs {
			e.Src, e.Dst, e.Weight = append(e.Src, a[0]), append(e.Dst, a[1]), append(e.Weight, a[2])
		}
		if got := EdgesMayLoop(e); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
		if got := MayLoop(graph.BuildCSR(e), false); got != c.want {
			t.Errorf("%s, as a CSR: %v, want %v", c.name, got, c.want)
		}
	}
}
