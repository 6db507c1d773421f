package hierarchy

// witnessLabel is one vertex's entry in a witness search: its tentative
// distance, valid when stamp is the search's, and whether it is a target
// (target == the search's stamp). One entry is one cache line fetch.
type witnessLabel struct {
	dist   int64
	stamp  uint32
	target uint32
}

// witnessSearch is one goroutine's scratch space for the local searches
// that decide whether a shortcut is needed: labels over all vertices,
// valid when their stamp is the current one, so a search starts in O(1).
type witnessSearch struct {
	label []witnessLabel
	cur   uint32
	heap  minHeap
}

// newWitnessSearch returns scratch space for n vertices, O(n).
func newWitnessSearch(n int) *witnessSearch {
	return &witnessSearch{label: make([]witnessLabel, n)}
}

// reset starts a new search, O(1) (O(n) once every 2^32 searches).
func (s *witnessSearch) reset() {
	s.cur++
	if s.cur == 0 {
		clear(s.label)
		s.cur = 1
	}
	s.heap = s.heap[:0]
}

// markTarget makes v a target of the current search; it reports false
// when v already was one. O(1).
func (s *witnessSearch) markTarget(v int32) bool {
	l := &s.label[v]
	if l.target == s.cur {
		return false
	}
	l.target = s.cur
	return true
}

// get returns the tentative distance of v in the current search, O(1).
func (s *witnessSearch) get(v int32) int64 {
	if l := &s.label[v]; l.stamp == s.cur {
		return l.dist
	}
	return infinity
}

// run is a Dijkstra search from src over the out-arcs of g that never
// enters skip nor, when blocked is not nil, a vertex with blocked[v] set.
// It stops once the smallest tentative distance exceeds bound, once it has
// settled limit vertices, or once it has settled the targets vertices
// marked with markTarget. Afterwards get gives, for every vertex, an upper
// bound of its distance that is exact when it is at most bound and the
// search did not stop for the limit. O(limit * d * log(limit * d)).
func (s *witnessSearch) run(g *dynGraph, src, skip int32, blocked []bool, bound int64, targets, limit int) {
	cur := s.cur
	label := s.label
	label[src].dist, label[src].stamp = 0, cur
	s.heap.push(0, src)
	settled := 0
	for len(s.heap) > 0 {
		it := s.heap.pop()
		u := it.v
		lu := &label[u]
		if it.dist > lu.dist {
			continue // stale
		}
		if it.dist > bound {
			return
		}
		if lu.target == cur {
			if targets--; targets == 0 {
				return
			}
		}
		if settled++; settled >= limit {
			return
		}
		for _, a := range g.out[u] {
			x := a.to
			if x == skip || (blocked != nil && blocked[x]) {
				continue
			}
			d := it.dist + a.w
			if lx := &label[x]; lx.stamp != cur || d < lx.dist {
				lx.dist, lx.stamp = d, cur
				s.heap.push(d, x)
			}
		}
	}
}
