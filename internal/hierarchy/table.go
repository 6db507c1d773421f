package hierarchy

import (
	"github.com/pathflow/pathflow/internal/paths"
)

// bucketEntry says that target Target reaches the bucket's vertex at
// distance Dist going up.
type bucketEntry struct {
	target int32
	dist   int64
}

// Table returns the distances from every source to every target (original
// ids) as a row-major len(sources) x len(targets) matrix, paths.Unreachable
// where there is no path, by the bucket algorithm: a backward upward
// search from each target leaves (target, distance) in a bucket at every
// vertex it settles, then a forward upward search from each source scans
// the buckets of the vertices it settles. Both phases run on workers
// goroutines (0: all cores). O((|S| + |T|) * search space + bucket scans),
// about |S| * |T| on road networks.
func (h *Hierarchy) Table(sources, targets []int32, workers int) ([]int64, error) {
	for _, list := range [2][]int32{sources, targets} {
		for _, v := range list {
			if err := h.checkVertex(v); err != nil {
				return nil, err
			}
		}
	}
	if workers <= 0 {
		workers = defaultWorkers()
	}
	pool := h.pool()
	nt := len(targets)
	// Backward searches, each keeping its settled vertices and distances.
	spaces := make([][]int32, nt)
	dists := make([][]int64, nt)
	forChunks(nt, workers, 4, func(_, lo, hi int) {
		s := pool.get()
		defer pool.put(s)
		for j := lo; j < hi; j++ {
			s.run(&h.Down, &h.Up, h.Rank[targets[j]], false)
			spaces[j] = append([]int32(nil), s.settled...)
			d := make([]int64, len(s.settled))
			for i, v := range s.settled {
				d[i] = s.dist[v]
			}
			dists[j] = d
		}
	})
	// Buckets: a dense index for each vertex some target reached, then the
	// entries grouped by it with a counting sort, targets in order.
	bucketOf := make([]int32, h.N)
	for v := range bucketOf {
		bucketOf[v] = -1
	}
	var count []int32
	for _, space := range spaces {
		for _, v := range space {
			b := bucketOf[v]
			if b < 0 {
				b = int32(len(count))
				bucketOf[v] = b
				count = append(count, 0)
			}
			count[b]++
		}
	}
	start := make([]int32, len(count)+1)
	for b, c := range count {
		start[b+1] = start[b] + c
	}
	entries := make([]bucketEntry, start[len(count)])
	next := append([]int32(nil), start[:len(count)]...)
	for j, space := range spaces {
		for i, v := range space {
			b := bucketOf[v]
			entries[next[b]] = bucketEntry{target: int32(j), dist: dists[j][i]}
			next[b]++
		}
	}
	out := make([]int64, len(sources)*nt)
	forChunks(len(sources), workers, 4, func(_, lo, hi int) {
		s := pool.get()
		defer pool.put(s)
		for i := lo; i < hi; i++ {
			row := out[i*nt : (i+1)*nt]
			for j := range row {
				row[j] = infinity
			}
			s.run(&h.Up, &h.Down, h.Rank[sources[i]], false)
			for _, v := range s.settled {
				b := bucketOf[v]
				if b < 0 {
					continue
				}
				dv := s.dist[v]
				for _, e := range entries[start[b]:start[b+1]] {
					if d := dv + e.dist; d < row[e.target] {
						row[e.target] = d
					}
				}
			}
			for j, d := range row {
				if d >= infinity {
					row[j] = paths.Unreachable
				}
			}
		}
	})
	return out, nil
}
