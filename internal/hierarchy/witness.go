package hierarchy

import "math"

// witnessSlot is one vertex's entry in a witness search's table: its
// tentative distance (unreached: the largest uint32) and, for a target not
// decided yet, one more than the length a witness may have (0 for other
// vertices). A search only keeps distances up to the largest need, the sum
// of two int32 weights, so both fit 32 bits. The slot belongs to the
// current search when stamp is the search's; else it is free. 16 bytes,
// four per cache line.
type witnessSlot struct {
	v      int32
	stamp  uint32
	dist   uint32
	needP1 uint32
}

// unreached is the distance of a slot the search has not reached.
const unreached = math.MaxUint32

// witnessSearch is one goroutine's scratch space for the local searches
// that decide whether a shortcut is needed. A search reaches a few dozen
// vertices (a few thousand at most, by its settled limit), so their labels
// live in a small open-addressing table instead of an array over all
// vertices: it stays in cache however large the graph, and costs
// kilobytes per goroutine, not bytes per vertex. Slots are valid when
// their stamp is the current one, so a search starts in O(1).
type witnessSearch struct {
	slot  []witnessSlot
	shift uint // 32 - log2(len(slot))
	used  int  // slots of the current search
	cur   uint32
	queue witnessQueue // of distances and slot indices, not vertex ids
	// targets of the current search, in the order they were added.
	targets []int32
	// settled counts the vertices all searches so far settled: the work.
	settled int64
	// cut says that the current search stopped at its settled limit, so
	// the targets it left undecided may have a witness it did not reach.
	cut bool
	// Each worker has its own search, and the searches are allocated one
	// after the other: without the pad the fields one worker writes on
	// every settled vertex (settled, the queue's length) would share a
	// cache line, or the pair of lines a core fetches together, with the
	// next search's, and two workers would stall on each other's writes.
	_ [2 * cacheLine]byte
}

// cacheLine is the size of a cache line on the processors the build runs
// on (x86-64 and arm64 servers).
const cacheLine = 64

// minWitnessSlots is the table's starting size; it doubles when half full.
const minWitnessSlots = 1 << 10

// newWitnessSearch returns scratch space for a search, O(1).
func newWitnessSearch() *witnessSearch {
	s := &witnessSearch{}
	s.alloc(minWitnessSlots)
	return s
}

// alloc replaces the table by an empty one of size slots, a power of two.
// O(size).
func (s *witnessSearch) alloc(size int) {
	s.slot = make([]witnessSlot, size)
	s.shift = 32
	for 1<<(32-s.shift) < size {
		s.shift--
	}
	s.cur = 1
	s.used = 0
}

// reset starts a new search, O(1) (O(table) once every 2^32 searches).
func (s *witnessSearch) reset() {
	s.cur++
	if s.cur == 0 {
		clear(s.slot)
		s.cur = 1
	}
	s.used = 0
	s.queue.reset()
	s.targets = s.targets[:0]
	s.cut = false
}

// find returns v's slot in the current search, claiming a free one for it
// (distance infinity, not a target) when it has none. Amortised O(1).
func (s *witnessSearch) find(v int32) *witnessSlot { return &s.slot[s.index(v)] }

// index returns the index of v's slot, as find does; a claim that fills the
// table to half grows it, which moves every slot. Amortised O(1).
func (s *witnessSearch) index(v int32) int32 {
	mask := uint32(len(s.slot) - 1)
	for i := (uint32(v) * 0x9e3779b1) >> s.shift; ; i = (i + 1) & mask {
		e := &s.slot[i]
		if e.stamp != s.cur {
			if 2*(s.used+1) > len(s.slot) {
				s.grow()
				return s.index(v)
			}
			s.used++
			*e = witnessSlot{v: v, stamp: s.cur, dist: unreached}
			return int32(i)
		}
		if e.v == v {
			return int32(i)
		}
	}
}

// lookup returns v's slot in the current search, or nil. O(1) expected.
func (s *witnessSearch) lookup(v int32) *witnessSlot {
	mask := uint32(len(s.slot) - 1)
	for i := (uint32(v) * 0x9e3779b1) >> s.shift; ; i = (i + 1) & mask {
		e := &s.slot[i]
		if e.stamp != s.cur {
			return nil
		}
		if e.v == v {
			return e
		}
	}
}

// grow doubles the table, keeping the current search's slots and pointing
// the queue at their new places. O(table).
func (s *witnessSearch) grow() {
	old, cur := s.slot, s.cur
	s.alloc(2 * len(old))
	for i := range old {
		if old[i].stamp == cur {
			e := s.find(old[i].v)
			*e = old[i]
			e.stamp = s.cur
		}
	}
	s.queue.rekey(func(key uint64) uint64 { return pack(uint32(key>>32), uint32(s.index(old[uint32(key)].v))) })
}

// addTarget makes v a target of the current search, to be reached by a
// witness of length at most need, the sum of two int32 weights >= 0; v
// must not be one yet. O(1) expected.
func (s *witnessSearch) addTarget(v int32, need int64) {
	s.find(v).needP1 = uint32(need + 1)
	s.targets = append(s.targets, v)
}

// get returns the tentative distance of v in the current search, O(1)
// expected.
func (s *witnessSearch) get(v int32) int64 {
	if e := s.lookup(v); e != nil && e.dist != unreached {
		return int64(e.dist)
	}
	return infinity
}

// unsure reports whether the current search left target v undecided
// because it stopped at its settled limit: a longer search might find a
// witness. O(1) expected.
func (s *witnessSearch) unsure(v int32) bool {
	e := s.lookup(v)
	return s.cut && e != nil && e.needP1 != 0
}

// run is a Dijkstra search from src over lists (the out-arcs of the
// remaining graph, or its in-arcs for a search backwards) that never
// enters skip nor, when blocked is not nil, a vertex with blocked[v] set,
// that decides for each target whether a witness reaches it: yes as soon
// as its tentative distance is at most its need, no once it is settled
// farther. It stops when every target is decided, when the smallest
// tentative distance exceeds the largest need of the targets left (none
// of them has a witness), or when it has settled limit vertices.
// Afterwards get gives, for every target, an upper bound of its distance
// that is at most its need when a witness was found, and above it when
// the search settled the target or passed its need without the limit
// stopping it. O(limit * d * log(limit * d) + targets^2).
func (s *witnessSearch) run(lists arcLists, src, skip int32, blocked []bool, limit int) {
	pending := len(s.targets)
	bound := s.pendingBound()
	i := s.index(src)
	e := &s.slot[i]
	e.dist = 0
	if e.needP1 != 0 {
		e.needP1 = 0
		if pending--; pending == 0 {
			return
		}
		bound = s.pendingBound()
	}
	s.queue.push(pack(0, uint32(i)))
	end := s.settled + int64(limit)
	for s.queue.len() > 0 {
		key := s.queue.pop()
		du := int64(key >> 32)
		if du > bound {
			return
		}
		lu := &s.slot[uint32(key)]
		if uint32(du) > lu.dist {
			continue // stale
		}
		if lu.needP1 != 0 {
			lu.needP1 = 0 // settled beyond its need: no witness
			if pending--; pending == 0 {
				return
			}
			bound = s.pendingBound()
		}
		if s.settled++; s.settled >= end {
			s.cut = true
			return
		}
		// The arcs' neighbours and weights, side by side (arcList).
		l := lists[lu.v]
		for k := 0; k+1 < len(l); k += 2 {
			x := l[k]
			if x == skip || (blocked != nil && blocked[x]) {
				continue
			}
			d := du + int64(l[k+1])
			if d > bound {
				continue // it would only be popped to stop the search
			}
			// The slot is most often at its home position: look there
			// before the call that probes and claims.
			xi := int32((uint32(x) * 0x9e3779b1) >> s.shift)
			if e := &s.slot[xi]; e.stamp != s.cur || e.v != x {
				xi = s.index(x)
			}
			lx := &s.slot[xi]
			if uint32(d) >= lx.dist {
				continue
			}
			lx.dist = uint32(d)
			if d < int64(lx.needP1) {
				lx.needP1 = 0 // a witness
				if pending--; pending == 0 {
					return
				}
				bound = s.pendingBound()
			}
			s.queue.push(pack(uint32(d), uint32(xi)))
		}
	}
}

// pendingBound returns the largest need of the targets not decided yet, -1
// when none is left, O(targets).
func (s *witnessSearch) pendingBound() int64 {
	bound := int64(-1)
	for _, v := range s.targets {
		bound = max(bound, int64(s.lookup(v).needP1)-1)
	}
	return bound
}
