package hierarchy

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sync/atomic"

	"github.com/pathflow/pathflow/internal/graph"
)

// shortcut is an arc u -> x that contracting mid needs.
type shortcut struct {
	u, x int32
	hops int32
	w, m int64
}

// contractor holds the state of one Build: the remaining graph, each
// vertex's priority and the terms it is made of, and the order so far.
type contractor struct {
	g          *dynGraph
	opts       BuildOptions
	workers    int
	prio       []float64
	depth      []int32 // longest chain of contracted vertices below
	neighbours []int32 // contracted neighbours
	// pairs[v] marks the pairs of neighbours that needed a shortcut at v's
	// last scoring: simulate searches again only for pairs that a fresh
	// arc touches.
	pairs []pairMask
	// unsure[v] marks those of them whose search stopped at its settled
	// limit before deciding: contraction searches them again.
	unsure     []pairMask
	contracted []bool
	inRound    []bool  // contracted in the current round: witness searches avoid them
	owners     []int32 // owners[b]: the worker that owns block b of ids (ownerShift)
	searches   []*witnessSearch
	order      []int32 // original ids in contraction order
	rounds     int
	shortcuts  int          // shortcut arcs added or lowered
	budget     int64        // vertices the witness searches may settle in all; 0: no bound
	work       atomic.Int64 // vertices they settled, counted per chunk of work
	over       atomic.Bool  // work went past budget
}

// account adds the vertices s settled since *mark to the work, and
// reports whether the build may go on. O(1).
func (c *contractor) account(s *witnessSearch, mark *int64) bool {
	total := c.work.Add(s.settled - *mark)
	*mark = s.settled
	if c.budget > 0 && total > c.budget {
		c.over.Store(true)
	}
	return !c.over.Load()
}

// overBudget returns a *WorkLimitError once the work went past the budget,
// else nil. O(1).
func (c *contractor) overBudget() error {
	if !c.over.Load() {
		return nil
	}
	n := len(c.contracted)
	return &WorkLimitError{Limit: float64(c.budget) / float64(n), Round: c.rounds, Contracted: len(c.order), N: n}
}

// findShortcuts calls emit for every shortcut that contracting v needs in
// the remaining graph, with witness searches that avoid the vertices in
// blocked (nil: none but v), and returns their count and the hops they
// stand for. The pairs of neighbours set in known get their shortcut
// without a search: v's scoring found no witness for them, and the
// searches that find none are the ones that settle the most. One bounded
// search per in-neighbour with targets left: O(deg(v) * settled * d
// log(settled * d)). In a symmetric graph each pair of neighbours is
// searched once, from the first, and emit gets one shortcut u -> x for the
// two arcs u -> x and x -> u (the count and hops include both).
func (c *contractor) findShortcuts(s *witnessSearch, v int32, blocked []bool, known pairMask, emit func(shortcut)) (added, addedHops int) {
	limit := c.opts.WitnessSettled
	if blocked == nil {
		limit = c.opts.SimulationSettled
	}
	ins, outs := c.g.in[v], c.g.out[v]
	for i := range ins.len() {
		ia := ins.arc(i)
		u := ia.to
		first, both := 0, 1
		if c.g.symmetric {
			first, both = i+1, 2
		}
		s.reset()
		for j := first; j < outs.len(); j++ {
			if oa := outs.arc(j); oa.to != u && !known.has(i, j) {
				s.addTarget(oa.to, int64(ia.w)+int64(oa.w))
			}
		}
		if len(s.targets) > 0 {
			s.run(c.g.out, u, v, blocked, limit)
		}
		for j := first; j < outs.len(); j++ {
			oa := outs.arc(j)
			if oa.to == u {
				continue
			}
			if w := int64(ia.w) + int64(oa.w); known.has(i, j) || c.needs(s.get(oa.to), w) {
				ii, oi := ins.info(i), outs.info(j)
				hops := ii.hopCount() + oi.hopCount()
				added += both
				addedHops += both * int(hops)
				if emit != nil {
					emit(shortcut{u: u, x: oa.to, hops: hops, w: w, m: int64(ii.m) + int64(oi.m)})
				}
			}
		}
	}
	return added, addedHops
}

// needs reports whether a pair of neighbours whose best witness weighs
// witness needs the shortcut of weight w through the contracted vertex:
// when the witness is longer, or, on a graph with a metric, as long (the
// witness search knows no metrics, and the shortcut may be the shorter
// by (weight, metric); keeping it is always correct). O(1).
func (c *contractor) needs(witness, w int64) bool {
	return witness > w || (c.g.metric && witness == w)
}

// simulate counts the shortcuts that contracting v would add and the hops
// they stand for, as findShortcuts does without blocked vertices, but
// searches only for the pairs of neighbours that a stale arc touches (a
// fresh one, or one past the positions pairs[v] covers): a pair that
// needed a shortcut at v's last scoring and whose two arcs have not
// changed since counts as it did then, and one that had a witness still
// has. Contracting other vertices keeps the distances among those left, so
// such a witness is rarely lost, and a priority is an estimate; this is
// what makes re-scoring the neighbours of each round cheap, since most of
// their pairs are old. O(deg(v)^2 + searches for stale pairs).
func (c *contractor) simulate(s *witnessSearch, v int32) (added, addedHops int) {
	ins, outs := c.g.in[v], c.g.out[v]
	both := 1
	if c.g.symmetric {
		both = 2
	}
	stale := func(list arcList, i int) bool { return !covers(i) || list.info(i).fresh() }
	old, oldUnsure := c.pairs[v], c.unsure[v]
	var m, unsure pairMask
	count := func(i, j int, cut bool) {
		m.set(i, j)
		if cut {
			unsure.set(i, j)
		}
		added += both
		addedHops += both * int(ins.info(i).hopCount()+outs.info(j).hopCount())
	}
	for i := range min(ins.len(), maskSpan) {
		for j := range min(outs.len(), maskSpan) {
			if old.has(i, j) && !stale(ins, i) && !stale(outs, j) {
				count(i, j, oldUnsure.has(i, j))
			}
		}
	}
	// search runs one search from src over lists to the others that want
	// reports, and counts each pair (as pair gives it) without a witness.
	search := func(lists arcLists, src searchArc, others arcList, want func(j int) bool, pair func(j int, cut bool)) {
		s.reset()
		for j := range others.len() {
			if b := others.arc(j); b.to != src.to && want(j) {
				s.addTarget(b.to, int64(src.w)+int64(b.w))
			}
		}
		if len(s.targets) == 0 {
			return
		}
		s.run(lists, src.to, v, nil, c.opts.SimulationSettled)
		for j := range others.len() {
			if b := others.arc(j); b.to != src.to && want(j) && c.needs(s.get(b.to), int64(src.w)+int64(b.w)) {
				pair(j, s.unsure(b.to))
			}
		}
	}
	if c.g.symmetric {
		// Each pair once: from its stale end, or from the earlier of two.
		for i := range outs.len() {
			if stale(outs, i) {
				search(c.g.out, outs.arc(i), outs, func(j int) bool { return j > i || !stale(outs, j) },
					func(j int, cut bool) { count(min(i, j), max(i, j), cut) })
			}
		}
	} else {
		for i := range ins.len() {
			if stale(ins, i) {
				search(c.g.out, ins.arc(i), outs, func(int) bool { return true }, func(j int, cut bool) { count(i, j, cut) })
			}
		}
		for j := range outs.len() {
			if stale(outs, j) {
				search(c.g.in, outs.arc(j), ins, func(i int) bool { return !stale(ins, i) }, func(i int, cut bool) { count(i, j, cut) })
			}
		}
	}
	c.pairs[v], c.unsure[v] = m, unsure
	return added, addedHops
}

// priority simulates contracting v and scores it by the ordering: lower
// goes first. O(cost of simulate).
func (c *contractor) priority(s *witnessSearch, v int32) float64 {
	added, addedHops := c.simulate(s, v)
	removed, removedHops := 0, 0
	for _, l := range [2]arcList{c.g.out[v], c.g.in[v]} {
		for i := range l.len() {
			removed++
			removedHops += int(l.info(i).hopCount())
		}
	}
	switch c.opts.Ordering {
	case OrderEdgeDifference:
		return float64(added-removed) + float64(c.neighbours[v]) + float64(c.depth[v])
	default:
		if removed == 0 {
			return float64(c.depth[v])
		}
		return float64(c.depth[v]) + float64(added)/float64(removed) + float64(addedHops)/float64(removedHops)
	}
}

// before reports whether v comes before x in the order of priorities, ties
// broken by a hash of the ids so that equal priorities do not make long
// chains of dependent choices. O(1).
func (c *contractor) before(v, x int32) bool {
	if c.prio[v] != c.prio[x] {
		return c.prio[v] < c.prio[x]
	}
	hv, hx := mix(uint32(v)), mix(uint32(x))
	if hv != hx {
		return hv < hx
	}
	return v < x
}

// mix is a 32-bit integer hash (the finaliser of MurmurHash3), O(1).
func mix(h uint32) uint32 {
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	h ^= h >> 16
	return h
}

// contractAll contracts every vertex in rounds: each round takes the
// vertices whose priority is below that of all their remaining neighbours
// (an independent set), finds their shortcuts in parallel, applies them,
// and re-scores the neighbours (the eager counterpart of lazy updates).
// The work is dominated by witness searches: O(n * deg * S log S) for S
// settled vertices per search, near-linear in n on road networks, far
// more on graphs without a hierarchy (see docs/road-networks.md).
func (c *contractor) contractAll(ctx context.Context) error {
	n := len(c.g.out)
	remaining := make([]int32, n)
	for v := range remaining {
		remaining[v] = int32(v)
	}
	forChunks(n, c.workers, 256, func(w, lo, hi int) {
		s, mark := c.searches[w], c.searches[w].settled
		if c.over.Load() {
			return
		}
		for v := lo; v < hi; v++ {
			c.score(s, int32(v))
		}
		c.account(s, &mark)
	})
	if err := c.overBudget(); err != nil {
		return err
	}
	picked := make([][]int32, c.workers)
	var found [][]shortcut // found[i]: the shortcuts of the i-th vertex of the round
	// crossing[i]: the i-th vertex of the round has a neighbour that
	// another worker owns. The apply step skips the others' vertices
	// without one, which have nothing for it: with blocks of ids that are
	// patches of the map, most vertices of a round.
	var crossing []bool
	seen := make([]int32, n)
	for v := range seen {
		seen[v] = -1
	}
	// Each vertex is owned by one worker in the apply step, which alone
	// touches its entries of seen (the last contracted neighbour counted)
	// and rescored (the last round that queued it for re-scoring).
	rescored := make([]int32, n)
	var affected []int32
	touchedBy := make([][]int32, c.workers)
	sym := c.g.symmetric // in and out are one list: change it once
	for len(remaining) > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		c.rounds++
		// Pick the independent set.
		for w := range picked {
			picked[w] = picked[w][:0]
		}
		forRanges(len(remaining), c.workers, func(w, lo, hi int) {
			mine := picked[w]
			for _, v := range remaining[lo:hi] {
				if c.isLocalMinimum(v) {
					mine = append(mine, v)
				}
			}
			picked[w] = mine
		})
		round := slices.Concat(picked...)
		for _, v := range round {
			c.inRound[v] = true
		}
		for len(found) < len(round) {
			found = append(found, nil)
			crossing = append(crossing, false)
		}
		// The pairs v's scoring found no witness for need no search, unless
		// that search stopped at its limit.
		known := func(v int32) pairMask { return c.pairs[v] &^ c.unsure[v] }
		var overflow atomic.Bool
		forOwned(round, c.workers, 16, c.owner, func(w, lo, hi int) {
			s, mark := c.searches[w], c.searches[w].settled
			defer c.account(s, &mark)
			if c.over.Load() {
				return
			}
			tooHeavy := false
			for i := lo; i < hi; i++ {
				list := found[i][:0]
				c.findShortcuts(s, round[i], c.inRound, known(round[i]), func(sc shortcut) {
					tooHeavy = tooHeavy || sc.w > math.MaxInt32 || sc.m > math.MaxInt32
					list = append(list, sc)
				})
				found[i] = list
				crossing[i] = c.crossesOwners(round[i])
			}
			if tooHeavy {
				overflow.Store(true)
			}
		})
		if err := c.overBudget(); err != nil {
			return err
		}
		if overflow.Load() {
			return fmt.Errorf("hierarchy: a shortcut weighs more than %d, the largest int32 weight (or metric)", math.MaxInt32)
		}
		// Apply: each worker owns the vertices of some blocks of ids and
		// makes every change to their lists, in the order of the round, so
		// the result does not depend on the number of workers.
		for _, v := range round {
			c.contracted[v] = true
			c.order = append(c.order, v)
		}
		forRanges(c.workers, c.workers, func(w, _, _ int) {
			mine := func(x int32) bool { return c.owner(x) == w }
			touched := touchedBy[w][:0]
			for i, v := range round {
				if !crossing[i] && !mine(v) {
					continue // v and all its neighbours are another's
				}
				for k, in := 0, c.g.in[v]; k < len(in); k += 2 {
					if x := in[k]; mine(x) {
						c.removeOut(x, v)
					}
				}
				if !sym {
					for k, out := 0, c.g.out[v]; k < len(out); k += 2 {
						if x := out[k]; mine(x) {
							c.removeIn(x, v)
						}
					}
				}
				for _, s := range found[i] {
					if mine(s.u) {
						c.g.out.upsert(s.u, freshArc(s.x, int32(s.w), int32(s.m), v, s.hops))
					}
					if mine(s.x) {
						c.g.in.upsert(s.x, freshArc(s.u, int32(s.w), int32(s.m), v, s.hops))
					}
				}
				lists := [2]arcList{c.g.in[v], c.g.out[v]}
				if sym {
					lists[1] = nil
				}
				for _, list := range lists {
					for k := 0; k < len(list); k += 2 {
						x := list[k]
						if !mine(x) || seen[x] == v {
							continue
						}
						seen[x] = v
						c.neighbours[x]++
						c.depth[x] = max(c.depth[x], c.depth[v]+1)
						if rescored[x] != int32(c.rounds) {
							rescored[x] = int32(c.rounds)
							touched = append(touched, x)
						}
					}
				}
			}
			touchedBy[w] = touched
		})
		affected = slices.Concat(touchedBy...)
		for _, v := range round {
			c.inRound[v] = false
		}
		forOwned(affected, c.workers, 16, c.owner, func(w, lo, hi int) {
			s, mark := c.searches[w], c.searches[w].settled
			if c.over.Load() {
				return
			}
			for _, x := range affected[lo:hi] {
				c.score(s, x)
			}
			c.account(s, &mark)
		})
		if err := c.overBudget(); err != nil {
			return err
		}
		remaining = slices.DeleteFunc(remaining, func(v int32) bool { return c.contracted[v] })
		if c.opts.Progress != nil {
			if err := c.progress(found[:len(round)], remaining); err != nil {
				return err
			}
		}
	}
	return nil
}

// ownerShift sets the blocks of consecutive ids, 1<<ownerShift long,
// whose vertices one worker owns: it alone changes their lists in a
// round, and it scores them and searches from them first. With the
// vertices numbered by locality a block is a patch of the map, and
// a search from one of its vertices mostly reads the lists of the same
// patch, which then sit in the cache of the core that last wrote them.
const ownerShift = 12

// owner returns the worker that owns x, O(1): a table of the blocks'
// owners, since the apply step asks for every arc of the round on every
// worker, and a division by the number of workers costs more than the
// load.
func (c *contractor) owner(x int32) int { return int(c.owners[x>>ownerShift]) }

// crossesOwners reports whether v has a neighbour, in or out, that a
// worker other than v's owns. O(deg(v)).
func (c *contractor) crossesOwners(v int32) bool {
	o := c.owner(v)
	for _, list := range [2]arcList{c.g.out[v], c.g.in[v]} {
		for k := 0; k < len(list); k += 2 {
			if c.owner(list[k]) != o {
				return true
			}
		}
	}
	return false
}

// removeOut deletes x's out-arc to v and moves x's pair marks with the arc
// that takes its place; an arc that moves into the positions the marks
// cover from beyond them is made fresh, since it has none. O(deg(x)).
func (c *contractor) removeOut(x, v int32) {
	i, last := c.g.out.remove(x, v)
	if i < 0 {
		return
	}
	if c.g.symmetric {
		c.pairs[x] = c.pairs[x].moveBoth(i, last)
		c.unsure[x] = c.unsure[x].moveBoth(i, last)
	} else {
		c.pairs[x] = c.pairs[x].moveCol(i, last)
		c.unsure[x] = c.unsure[x].moveCol(i, last)
	}
	c.refresh(c.g.out[x], i, last)
}

// removeIn is removeOut for x's in-arc from v, in a graph that is not
// symmetric. O(deg(x)).
func (c *contractor) removeIn(x, v int32) {
	i, last := c.g.in.remove(x, v)
	if i < 0 {
		return
	}
	c.pairs[x] = c.pairs[x].moveRow(i, last)
	c.unsure[x] = c.unsure[x].moveRow(i, last)
	c.refresh(c.g.in[x], i, last)
}

// refresh makes the arc that moved from position last to i fresh when the
// pair marks cover i but not last. O(1).
func (c *contractor) refresh(list arcList, i, last int) {
	if covers(i) && !covers(last) {
		a := list.info(i)
		a.hops = -a.hopCount()
		list.setInfo(i, a)
	}
}

// score sets v's priority and marks its arcs as not fresh, now that the
// priority has seen them. The worker that scores v settles its lists
// while they are in its cache, instead of a pass over them all after the
// round's scoring: no other vertex's scoring reads whether v's arcs are
// fresh, and the searches read only the neighbours and weights, which
// settling does not write. O(cost of priority + deg(v)).
func (c *contractor) score(s *witnessSearch, v int32) {
	c.prio[v] = c.priority(s, v)
	c.g.out.settle(v)
	if !c.g.symmetric {
		c.g.in.settle(v)
	}
}

// progress tells BuildOptions.Progress where the build stands after a
// round whose shortcuts were found. O(len(remaining) + len(found)).
func (c *contractor) progress(found [][]shortcut, remaining []int32) error {
	for _, list := range found {
		c.shortcuts += len(list)
		if c.g.symmetric {
			c.shortcuts += len(list) // each stands for both directions
		}
	}
	arcs := 0
	for _, v := range remaining {
		arcs += c.g.out[v].len()
	}
	return c.opts.Progress(Progress{Round: c.rounds, Contracted: len(c.order), Remaining: len(remaining),
		RemainingArcs: arcs, Shortcuts: c.shortcuts, Settled: c.work.Load()})
}

// isLocalMinimum reports whether v comes before all its remaining
// neighbours. O(deg(v)).
func (c *contractor) isLocalMinimum(v int32) bool {
	out := c.g.out[v]
	for k := 0; k < len(out); k += 2 {
		if !c.before(v, out[k]) {
			return false
		}
	}
	if c.g.symmetric {
		return true
	}
	in := c.g.in[v]
	for k := 0; k < len(in); k += 2 {
		if !c.before(v, in[k]) {
			return false
		}
	}
	return true
}

// Build contracts every vertex of g and returns the hierarchy. It refuses
// negative weights and stops with ctx's error when ctx is done. Its time
// is dominated by witness searches, O(n * deg * settled log settled) on
// graphs with a good hierarchy (road networks), on all cores.
func Build(ctx context.Context, g *graph.CSR, opts ...Option) (*Hierarchy, error) {
	o := DefaultBuildOptions()
	for _, opt := range opts {
		opt(&o)
	}
	o.WitnessSettled = max(1, o.WitnessSettled)
	o.SimulationSettled = max(1, o.SimulationSettled)
	n := int(g.N)
	hasXY := n > 0 && len(o.X) == n && len(o.Y) == n
	// The build numbers the vertices by locality where it can (order[i] is
	// the vertex of g that it calls i) and gives them their ids back at
	// the end.
	var order []int32
	if hasXY {
		order = localityOrder(o.X, o.Y)
	}
	dg, err := newDynGraphIn(g, order, o.workers())
	if err != nil {
		return nil, err
	}
	c := &contractor{
		g: dg, opts: o, workers: o.workers(),
		prio: make([]float64, n), depth: make([]int32, n), neighbours: make([]int32, n), pairs: make([]pairMask, n), unsure: make([]pairMask, n),
		contracted: make([]bool, n), inRound: make([]bool, n),
		order:  make([]int32, 0, n),
		budget: int64(math.Ceil(o.WorkLimit * float64(n))),
	}
	for range c.workers {
		c.searches = append(c.searches, newWitnessSearch())
	}
	c.owners = make([]int32, n>>ownerShift+1)
	for b := range c.owners {
		c.owners[b] = int32(b % c.workers)
	}
	if err := c.contractAll(ctx); err != nil {
		return nil, err
	}
	c.searches = nil
	var key []uint64
	if hasXY {
		key = mortonKeysIn(o.X, o.Y, order)
	}
	h := layout(dg, levelOrder(dg, c.order, key), c.workers)
	if order != nil {
		for r, i := range h.Order {
			h.Order[r] = order[i]
			h.Rank[order[i]] = int32(r)
		}
	}
	h.GraphChecksum = o.Checksum
	h.Rounds = c.rounds
	return h, nil
}
