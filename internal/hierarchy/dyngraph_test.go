package hierarchy

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestArcListsMatchWholeArcs checks the packed lists against plain slices
// of whole arcs under random upserts, removals and settling: after every
// change each list must hold the same arcs, fields and positions, through
// the moves to a larger list and the arcs that fill the moved-from places.
func TestArcListsMatchWholeArcs(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 2))
	const n = 6
	lists := make(arcLists, n)
	for v := range lists {
		lists[v] = newArcList(rng.IntN(3))
	}
	want := make([][]darc, n)
	for step := range 20000 {
		v, x := rng.Int32N(n), rng.Int32N(40)
		switch rng.IntN(4) {
		case 0, 1:
			a := freshArc(x, rng.Int32N(50), rng.Int32N(50), rng.Int32N(9), 1+rng.Int32N(5))
			lists.upsert(v, a)
			if i := slices.IndexFunc(want[v], func(b darc) bool { return b.to == x }); i < 0 {
				want[v] = append(want[v], a)
			} else if a.lighter(want[v][i]) {
				want[v][i] = a
			}
		case 2:
			at, last := lists.remove(v, x)
			i := slices.IndexFunc(want[v], func(b darc) bool { return b.to == x })
			if i >= 0 {
				l := len(want[v]) - 1
				want[v][i] = want[v][l]
				want[v] = want[v][:l]
				if at != i || last != l {
					t.Fatalf("step %d: remove gave positions %d, %d; want %d, %d", step, at, last, i, l)
				}
			} else if at != -1 || last != -1 {
				t.Fatalf("step %d: removed an arc to %d that is not there", step, x)
			}
		case 3:
			lists.settle(v)
			for i := range want[v] {
				want[v][i].hops = max(want[v][i].hops, -want[v][i].hops)
			}
		}
		l := lists[v]
		if l.len() != len(want[v]) {
			t.Fatalf("step %d: vertex %d has %d arcs, want %d", step, v, l.len(), len(want[v]))
		}
		for i, a := range want[v] {
			if got := l.whole(i); got != a {
				t.Fatalf("step %d: vertex %d arc %d is %+v, want %+v", step, v, i, got, a)
			}
			if l.arc(i) != (searchArc{to: a.to, w: a.w}) || l.find(a.to) != i {
				t.Fatalf("step %d: vertex %d arc %d reads %+v at %d", step, v, i, l.arc(i), l.find(a.to))
			}
		}
	}
}
