package hierarchy

import (
	"sort"
	"sync/atomic"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/parallel"
)

// Levels returns ranges of hierarchy ids that a PHAST sweep may settle a
// range at a time, top range first: range l holds ids Levels[l] to
// Levels[l+1]-1, and the last entry is N. No Down arc joins two ids of
// one range, and every Down arc into a range comes from a higher one, so
// all of a range's vertices may be settled at once. The ranges are found
// by one scan up the ids: a range ends where the next id is the lowest
// Down neighbour above an id already in it (rows are sorted, so that is
// the first entry of each row). Build lays the ids out by contraction
// level, so each range holds one level or more. O(N), the first call;
// the result is kept and shared by every caller (do not modify it).
//
// Only the Down arcs are read: a sweep reads nothing else, and the Up
// arcs of a stored hierarchy are then left to the upward searches, which
// touch a few hundred rows a source. On a symmetric graph Up and Down
// have the same rows, and the ranges are those of both; reading the Up
// rows too mapped 0.41 GB more of a 24M-vertex hierarchy file into every
// sweeping process, for nothing.
func (h *Hierarchy) Levels() []int32 {
	h.levelsOnce.Do(func() { h.levels = h.findLevels() })
	return h.levels
}

// findLevels is Levels without the cache. Each id's lowest higher Down
// neighbour is found on every core first (one row read per id, in no
// order); the scan that cuts the ranges then reads one array.
func (h *Hierarchy) findLevels() []int32 {
	n := int(h.N)
	if n == 0 {
		return []int32{0}
	}
	firstHigher := make([]int32, n)
	forChunks(n, defaultWorkers(), 1<<16, func(_, lo, hi int) {
		for r := lo; r < hi; r++ {
			firstHigher[r] = h.lowestDownNeighbour(int32(r))
		}
	})
	starts := []int32{0}
	bound := firstHigher[0]
	for r := 1; r < n; r++ {
		if int32(r) >= bound {
			starts = append(starts, int32(r))
			bound = h.N
		}
		bound = min(bound, firstHigher[r])
	}
	return append(starts, h.N)
}

// lowestDownNeighbour is the lowest id above r that a Down arc joins to
// r, or N for none: the first entry of r's Down row, which is sorted.
func (h *Hierarchy) lowestDownNeighbour(r int32) int32 {
	if a, b := h.Down.Offsets[r], h.Down.Offsets[r+1]; a < b {
		return h.Down.Targets[a]
	}
	return h.N
}

// Seeds are the vertices an upward search settled (hierarchy ids) and
// their upward distances: the starting values of a PHAST sweep.
type Seeds struct {
	Vertices []int32
	Dist     []int64
}

// UpwardSearches runs the upward search (with stall-on-demand) of each
// source (original ids) on workers goroutines (0: all cores) and returns
// what each settled, in sources' order: the host's share of a sweep run
// elsewhere, such as on a GPU. O(search space) per source, a few hundred
// vertices on road networks.
func (h *Hierarchy) UpwardSearches(sources []int32, workers int) ([]Seeds, error) {
	for _, s := range sources {
		if err := h.checkVertex(s); err != nil {
			return nil, err
		}
	}
	if workers <= 0 {
		workers = defaultWorkers()
	}
	out := make([]Seeds, len(sources))
	pool := h.pool()
	var over atomic.Bool
	forChunks(len(sources), workers, 16, func(_, lo, hi int) {
		s := pool.get()
		defer pool.put(s)
		for i := lo; i < hi; i++ {
			s.run(h, true, h.Rank[sources[i]], false)
			if s.overflow {
				over.Store(true)
			}
			seeds := Seeds{Vertices: make([]int32, len(s.settled)), Dist: make([]int64, len(s.settled))}
			for j, v := range s.settled {
				seeds.Vertices[j], seeds.Dist[j] = v, s.dist[v]
			}
			out[i] = seeds
		}
	})
	return out, checkKeys(over.Load())
}

// Selection is the part of a hierarchy that a PHAST sweep must settle to
// find the distances to some vertices (restricted PHAST): those vertices
// and every vertex with a downward path to one of them, closed under the
// tails of Down arcs, so a sweep over the selection alone, seeded with the
// upward searches' values at its vertices, gives the chosen vertices
// their exact distances. On a road network a few thousand targets select
// a small part of the graph.
type Selection struct {
	// Vertices are the selected hierarchy ids, ascending.
	Vertices []int32
	// Down row i lists the Down arcs into Vertices[i], tails as positions
	// in Vertices (every tail is selected).
	Down graph.CSR
	// Levels are ranges of positions as Hierarchy.Levels gives them, the
	// empty ones left out: no arc joins two positions of one range.
	Levels []int32
	// position[r] is r's position in Vertices, or -1.
	position []int32
	// downKeys, in a selection of a hierarchy WithMetricKeys made, are
	// the Down arcs' keys in Down's order.
	downKeys []int64
}

// Position returns the position of hierarchy id r in the selection, or
// -1 when r is not selected. O(1).
func (s *Selection) Position(r int32) int32 { return s.position[r] }

// selectChunk is the ids a goroutine of Select's passes takes at once.
const selectChunk = 1 << 16

// Select returns the selection that reaches vertices (original ids; nil:
// every vertex). O(N + selected arcs); the whole selection is made on the
// first call for nil, then kept and shared (do not modify it).
func (h *Hierarchy) Select(vertices []int32) (*Selection, error) {
	levels := h.Levels()
	if vertices == nil {
		h.wholeOnce.Do(func() {
			// On every core: 0.05-0.07 s on one at 24M ids, which every
			// device's first sweep waited for.
			all := make([]int32, h.N)
			forChunks(len(all), defaultWorkers(), selectChunk, func(_, lo, hi int) {
				for r := lo; r < hi; r++ {
					all[r] = int32(r)
				}
			})
			// Position r is r: the one array serves as both.
			h.whole = &Selection{Vertices: all, Down: h.Down, Levels: levels, position: all}
			if h.keys != nil {
				h.whole.downKeys = h.keys.down
			}
		})
		return h.whole, nil
	}
	// The passes over every id (marking none, then numbering the marked
	// ones) run on every core: at 24M ids Select took 0.11 s on one core
	// beside Levels, in a GPU table whose compute stage was 0.39 s.
	n := int(h.N)
	workers := defaultWorkers()
	position := make([]int32, n)
	forChunks(n, workers, selectChunk, func(_, lo, hi int) {
		for r := lo; r < hi; r++ {
			position[r] = -1
		}
	})
	const marked = -2
	stack := make([]int32, 0, len(vertices))
	for _, v := range vertices {
		if err := h.checkVertex(v); err != nil {
			return nil, err
		}
		if r := h.Rank[v]; position[r] == -1 {
			position[r] = marked
			stack = append(stack, r)
		}
	}
	for len(stack) > 0 {
		r := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, x := range h.Down.Targets[h.Down.Offsets[r]:h.Down.Offsets[r+1]] {
			if position[x] == -1 {
				position[x] = marked
				stack = append(stack, x)
			}
		}
	}
	s := &Selection{position: position}
	// Chunk c holds ids c*selectChunk onwards: counted first, so that each
	// chunk then numbers its marked ids from the count before it.
	chunks := (n + selectChunk - 1) / selectChunk
	chunk := func(c int) (lo, hi int) { return c * selectChunk, min(n, (c+1)*selectChunk) }
	first := make([]int, chunks+1) // first[c]: the marked ids before chunk c
	parallel.For(chunks, workers, func(c int) {
		lo, hi := chunk(c)
		count := 0
		for _, p := range position[lo:hi] {
			if p == marked {
				count++
			}
		}
		first[c+1] = count
	})
	for c := range chunks {
		first[c+1] += first[c]
	}
	s.Vertices = make([]int32, first[chunks])
	parallel.For(chunks, workers, func(c int) {
		lo, hi := chunk(c)
		at := first[c]
		for r := lo; r < hi; r++ {
			if position[r] == marked {
				position[r] = int32(at)
				s.Vertices[at] = int32(r)
				at++
			}
		}
	})
	s.Down = graph.CSR{N: int32(len(s.Vertices)), Offsets: make([]int64, len(s.Vertices)+1)}
	for i, r := range s.Vertices {
		lo, hi := h.Down.Offsets[r], h.Down.Offsets[r+1]
		for a := lo; a < hi; a++ {
			s.Down.Targets = append(s.Down.Targets, position[h.Down.Targets[a]])
		}
		s.Down.Weights = append(s.Down.Weights, h.Down.Weights[lo:hi]...)
		if h.keys != nil {
			s.downKeys = append(s.downKeys, h.keys.down[lo:hi]...)
		}
		s.Down.Offsets[i+1] = int64(len(s.Down.Targets))
	}
	// A level's positions are contiguous because Vertices ascend.
	s.Levels = []int32{0}
	for l := 1; l < len(levels); l++ {
		at := int32(sort.Search(len(s.Vertices), func(i int) bool { return s.Vertices[i] >= levels[l] }))
		if at > s.Levels[len(s.Levels)-1] {
			s.Levels = append(s.Levels, at)
		}
	}
	return s, nil
}
