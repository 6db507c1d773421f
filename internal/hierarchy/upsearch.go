package hierarchy

import "sync"

// upSearch is one goroutine's scratch space for searches that only climb
// in rank: distances valid when their stamp is the current one, so a
// search starts in O(1), and the vertices it settled.
type upSearch struct {
	dist    []int64
	stamp   []uint32
	cur     uint32
	heap    minHeap
	settled []int32 // settled and not stalled, in order
	// overflow says that the last search met a path whose length reaches
	// infinity, which it could not hold: on metric keys, a path weighing
	// graph.MaxKeyedDistance or more (see checkKeys).
	overflow bool
	// parent and parentArc, when tracking: the vertex before each reached
	// vertex and the index of the arc from it (in the CSR searched).
	parent    []int32
	parentArc []int64
}

// newUpSearch returns scratch space for n vertices, O(n).
func newUpSearch(n int32) *upSearch {
	return &upSearch{dist: make([]int64, n), stamp: make([]uint32, n)}
}

// get returns the tentative distance of v, or infinity, O(1).
func (s *upSearch) get(v int32) int64 {
	if s.stamp[v] == s.cur {
		return s.dist[v]
	}
	return infinity
}

// run searches from src upwards: forwards over the Up arcs (a source's
// search), or backwards over the Down arcs (a target's), reading keys
// instead of weights in a hierarchy WithMetricKeys made. See climb.
func (s *upSearch) run(h *Hierarchy, forward bool, src int32, track bool) {
	up, down := &h.Up, &h.Down
	if k := h.keys; k != nil {
		if forward {
			climb(s, keyView(up, k.up), keyView(down, k.down), src, track)
		} else {
			climb(s, keyView(down, k.down), keyView(up, k.up), src, track)
		}
		return
	}
	if forward {
		climb(s, weightView(up), weightView(down), src, track)
	} else {
		climb(s, weightView(down), weightView(up), src, track)
	}
}

// climb searches from src over the arcs of up (Up forward, Down
// backward) with stall-on-demand over the arcs of stall (the other one):
// a settled vertex that a higher vertex reaches more cheaply through an
// arc of stall is not on a shortest up-down path, so its arcs are not
// relaxed and it is left out of settled. Afterwards s.settled lists the
// other settled vertices, whose distances are exact upward distances for
// every vertex that is the top of a shortest path. With track, parent and
// parentArc record the search tree. O(S * d * log(S * d)) for S settled
// vertices, a few hundred on road networks.
func climb[W arcWeight](s *upSearch, up, stall arcView[W], src int32, track bool) {
	s.cur++
	if s.cur == 0 {
		clear(s.stamp)
		s.cur = 1
	}
	if track && s.parent == nil {
		s.parent = make([]int32, len(s.dist))
		s.parentArc = make([]int64, len(s.dist))
	}
	s.heap = s.heap[:0]
	s.settled = s.settled[:0]
	s.overflow = false
	s.dist[src], s.stamp[src] = 0, s.cur
	if track {
		s.parent[src], s.parentArc[src] = -1, -1
	}
	s.heap.push(0, src)
	for len(s.heap) > 0 {
		it := s.heap.pop()
		u, du := it.v, it.dist
		if du > s.dist[u] {
			continue // stale
		}
		stalled := false
		for a := stall.offsets[u]; a < stall.offsets[u+1]; a++ {
			if s.get(stall.targets[a])+int64(stall.weights[a]) < du {
				stalled = true
				break
			}
		}
		if stalled {
			continue
		}
		s.settled = append(s.settled, u)
		for a := up.offsets[u]; a < up.offsets[u+1]; a++ {
			x := up.targets[a]
			if d := du + int64(up.weights[a]); d < s.get(x) {
				s.dist[x], s.stamp[x] = d, s.cur
				if track {
					s.parent[x], s.parentArc[x] = u, a
				}
				s.heap.push(d, x)
			} else if d >= infinity {
				s.overflow = true
			}
		}
	}
}

// searchPool hands out upward-search scratch space and PHAST lanes for
// one hierarchy, so that repeated queries allocate nothing.
//
// The searches' scratch space is kept in a free list of its own, not a
// sync.Pool, which drops what it holds at every second collection: each
// new one is two arrays over all vertices, and a search's first touches
// of them are page faults. A GPU table's launches each run their
// sources' upward searches while the writers collect often: on the 24M
// road-like hierarchy, 3,000 searches in calls of 500 on two workers took
// 0.27-0.34 s with the scratch space kept and 0.54-0.75 s with two
// collections between the calls. The list holds at most as many as were
// ever in use at once (the workers of one call).
type searchPool struct {
	n     int32
	mu    sync.Mutex
	free  []*upSearch
	lanes [2]sync.Pool // narrow, wide
}

// get takes scratch space from the pool, O(n) when it must make one.
func (p *searchPool) get() *upSearch {
	p.mu.Lock()
	if k := len(p.free); k > 0 {
		s := p.free[k-1]
		p.free = p.free[:k-1]
		p.mu.Unlock()
		return s
	}
	p.mu.Unlock()
	return newUpSearch(p.n)
}

// put returns scratch space to the pool, O(1).
func (p *searchPool) put(s *upSearch) {
	p.mu.Lock()
	p.free = append(p.free, s)
	p.mu.Unlock()
}

// getLanes takes PHAST lanes of the width asked for from the pool, O(n)
// when it must make them.
func (p *searchPool) getLanes(wide bool) lanesState {
	if l, ok := p.lanes[widthIndex(wide)].Get().(lanesState); ok {
		return l
	}
	return newLanes(int(p.n), wide)
}

// putLanes returns PHAST lanes to the pool, O(1).
func (p *searchPool) putLanes(l lanesState) {
	_, wide := l.(*phastLanes[int64])
	p.lanes[widthIndex(wide)].Put(l)
}

// widthIndex is the pool of lanes of a width.
func widthIndex(wide bool) int {
	if wide {
		return 1
	}
	return 0
}
