package hierarchy

import (
	"fmt"
)

// Levels returns the hierarchy's levels as ranges of hierarchy ids: level
// l holds ids Levels[l] to Levels[l+1]-1, and the last entry is N. A
// vertex's level is one more than the highest level of the vertices below
// it that it shares an arc with, so no arc joins two vertices of one level
// and every Down arc of a level comes from a higher one: a PHAST sweep may
// settle all of a level's vertices at once, top level first. Build lays
// the ids out by level, so the ranges are contiguous; an error says
// otherwise. O(N + arcs).
func (h *Hierarchy) Levels() ([]int32, error) {
	level := make([]int32, h.N)
	for r := range h.N {
		next := level[r] + 1
		for _, x := range h.Up.Targets[h.Up.Offsets[r]:h.Up.Offsets[r+1]] {
			level[x] = max(level[x], next)
		}
		for _, x := range h.Down.Targets[h.Down.Offsets[r]:h.Down.Offsets[r+1]] {
			level[x] = max(level[x], next)
		}
	}
	starts := []int32{0}
	for r := int32(1); r < h.N; r++ {
		switch {
		case level[r] < level[r-1]:
			return nil, fmt.Errorf("hierarchy: id %d is on level %d after id %d on level %d: the ids are not laid out by level", r, level[r], r-1, level[r-1])
		case level[r] > level[r-1]:
			starts = append(starts, r)
		}
	}
	if h.N == 0 {
		return []int32{0}, nil
	}
	return append(starts, h.N), nil
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
	forChunks(len(sources), workers, 16, func(_, lo, hi int) {
		s := pool.get()
		defer pool.put(s)
		for i := lo; i < hi; i++ {
			s.run(&h.Up, &h.Down, h.Rank[sources[i]], false)
			seeds := Seeds{Vertices: make([]int32, len(s.settled)), Dist: make([]int64, len(s.settled))}
			for j, v := range s.settled {
				seeds.Vertices[j], seeds.Dist[j] = v, s.dist[v]
			}
			out[i] = seeds
		}
	})
	return out, nil
}
