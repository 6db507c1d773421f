package hierarchy

import (
	"math/rand/v2"
	"testing"

	"github.com/pathflow/pathflow/internal/graph"
)

// TestSimulateSearchesOnlyFreshPairs checks the scoring's reuse of pairs:
// after a vertex x is scored, new, lowered or removed arcs at x change no witness
// that avoids x, so scoring x again, which searches only the pairs those
// fresh arcs touch, must count the shortcuts a full simulation counts, and
// settling fewer vertices in all, since most arcs stayed as they were. Symmetric and
// directed graphs.
func TestSimulateSearchesOnlyFreshPairs(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 5))
	var reusedAll, fullAll int64
	for trial := range 300 {
		symmetric := trial%2 == 0
		n := int32(4 + rng.IntN(40))
		e := graph.NewEdgeList(n, 0)
		for range 3 * n {
			u, v, w := rng.Int32N(n), rng.Int32N(n), rng.Int32N(30)
			e.Add(u, v, w)
			if symmetric {
				e.Add(v, u, w)
			}
		}
		g, err := newDynGraph(graph.BuildCSR(e))
		if err != nil {
			t.Fatal(err)
		}
		// Searches that no settled limit cuts, so that both scorings are
		// exact and must agree.
		opts := DefaultBuildOptions()
		opts.SimulationSettled = int(n)
		c := &contractor{g: g, opts: opts, pairs: make([]pairMask, n), unsure: make([]pairMask, n)}
		s := newWitnessSearch()
		x := rng.Int32N(n)
		c.simulate(s, x)
		g.out.settle(x)
		g.in.settle(x)
		// Change some arcs at x: remove one, lower or add others.
		if outs := g.out[x]; outs.len() > 0 && rng.IntN(2) == 0 {
			c.removeOut(x, outs.arc(rng.IntN(outs.len())).to)
		}
		if ins := g.in[x]; !symmetric && ins.len() > 0 && rng.IntN(2) == 0 {
			c.removeIn(x, ins.arc(rng.IntN(ins.len())).to)
		}
		for range 1 + rng.IntN(2) {
			y := rng.Int32N(n)
			if y == x {
				continue
			}
			w := rng.Int32N(30)
			if i := g.out[x].find(y); i >= 0 {
				w = g.out[x].arc(i).w / 2
			}
			g.out.upsert(x, freshArc(y, w, 0, NoMiddle, 1))
			if symmetric {
				g.out.upsert(y, darc{to: x, w: w, mid: NoMiddle, hops: 1})
			} else {
				g.in.upsert(y, darc{to: x, w: w, mid: NoMiddle, hops: 1})
			}
		}
		before := s.settled
		added, hops := c.simulate(s, x)
		reused := s.settled - before
		before = s.settled
		wantAdded, wantHops := c.findShortcuts(s, x, nil, 0, nil)
		full := s.settled - before
		if added != wantAdded || hops != wantHops {
			t.Fatalf("trial %d (symmetric %v): vertex %d scored %d shortcuts, %d hops; a full simulation %d, %d", trial, symmetric, x, added, hops, wantAdded, wantHops)
		}
		reusedAll += reused
		fullAll += full
	}
	if reusedAll >= fullAll {
		t.Fatalf("scoring again settled %d vertices in all, full simulations %d", reusedAll, fullAll)
	}
}
