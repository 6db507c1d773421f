package hierarchy

// witnessSearch is one goroutine's scratch space for the local searches
// that decide whether a shortcut is needed: distances and target marks
// over all vertices, valid when their stamp is the current one, so a
// search starts in O(1).
type witnessSearch struct {
	dist   []int64
	stamp  []uint32
	target []uint32
	cur    uint32
	heap   minHeap
}

func newWitnessSearch(n int) *witnessSearch {
	return &witnessSearch{dist: make([]int64, n), stamp: make([]uint32, n), target: make([]uint32, n)}
}

// reset starts a new search, O(1) (O(n) once every 2^32 searches).
func (s *witnessSearch) reset() {
	s.cur++
	if s.cur == 0 {
		clear(s.stamp)
		clear(s.target)
		s.cur = 1
	}
	s.heap = s.heap[:0]
}

// get returns the tentative distance of v in the current search.
func (s *witnessSearch) get(v int32) int64 {
	if s.stamp[v] == s.cur {
		return s.dist[v]
	}
	return infinity
}

// run is a Dijkstra search from src over the out-arcs of g that never
// enters skip nor, when blocked is not nil, a vertex with blocked[v] set.
// It stops once the smallest tentative distance exceeds bound, once it has
// settled limit vertices, or once it has settled the targets vertices
// marked in s.target. Afterwards get gives, for every vertex, an upper
// bound of its distance that is exact when it is at most bound and the
// search did not stop for the limit. O(limit * d * log(limit * d)).
func (s *witnessSearch) run(g *dynGraph, src, skip int32, blocked []bool, bound int64, targets, limit int) {
	s.dist[src], s.stamp[src] = 0, s.cur
	s.heap.push(0, src)
	settled := 0
	for len(s.heap) > 0 {
		it := s.heap.pop()
		u := it.v
		if it.dist > s.dist[u] {
			continue // stale
		}
		if it.dist > bound {
			return
		}
		if s.target[u] == s.cur {
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
			if d := it.dist + a.w; d < s.get(x) {
				s.dist[x], s.stamp[x] = d, s.cur
				s.heap.push(d, x)
			}
		}
	}
}
