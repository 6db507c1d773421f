package hierarchy

import (
	"fmt"
	"sync/atomic"

	"github.com/pathflow/pathflow/internal/paths"
)

// bucketEntry says that target Target reaches the bucket's vertex at
// distance Dist going up.
type bucketEntry struct {
	target int32
	dist   int64
}

// Buckets hold the backward upward searches of a list of targets, grouped
// by the vertex they settled: the first half of the bucket algorithm
// (Table), kept so that the rows of many batches of sources can be read
// against one set of targets, or so that one Buckets can be refilled for
// target list after target list without O(N) work each time. A Buckets
// is read by any number of goroutines at once (Rows) but filled by one.
type Buckets struct {
	h *Hierarchy
	// targets is the number of targets of the current fill.
	targets int
	// bucketOf[v] is the index of vertex v's bucket, or -1; keys lists the
	// vertices that have one, so a refill clears only those.
	bucketOf []int32
	keys     []int32
	// start[b]..start[b+1]-1 are bucket b's entries, targets in order.
	start   []int32
	entries []bucketEntry
}

// NewBuckets returns empty buckets on h (no targets), O(N).
func NewBuckets(h *Hierarchy) *Buckets {
	b := &Buckets{h: h, bucketOf: make([]int32, h.N), start: []int32{0}}
	for v := range b.bucketOf {
		b.bucketOf[v] = -1
	}
	return b
}

// Targets returns the number of targets of the last Fill: the width of
// the rows Rows writes.
func (b *Buckets) Targets() int { return b.targets }

// Fill replaces the buckets' targets by targets (original ids; a target
// may repeat), running their backward upward searches on workers
// goroutines (0: all cores). O(|T| * search space) plus the vertices the
// previous fill used.
func (b *Buckets) Fill(targets []int32, workers int) error {
	h := b.h
	for _, v := range targets {
		if err := h.checkVertex(v); err != nil {
			return err
		}
	}
	if workers <= 0 {
		workers = defaultWorkers()
	}
	for _, v := range b.keys {
		b.bucketOf[v] = -1
	}
	b.keys = b.keys[:0]
	b.targets = len(targets)
	pool := h.pool()
	nt := len(targets)
	// Backward searches, each keeping its settled vertices and distances.
	spaces := make([][]int32, nt)
	dists := make([][]int64, nt)
	var over atomic.Bool
	forChunks(nt, workers, 4, func(_, lo, hi int) {
		s := pool.get()
		defer pool.put(s)
		for j := lo; j < hi; j++ {
			s.run(h, false, h.Rank[targets[j]], false)
			if s.overflow {
				over.Store(true)
			}
			spaces[j] = append([]int32(nil), s.settled...)
			d := make([]int64, len(s.settled))
			for i, v := range s.settled {
				d[i] = s.dist[v]
			}
			dists[j] = d
		}
	})
	// A dense index for each vertex some target reached, then the entries
	// grouped by it with a counting sort, targets in order.
	var count []int32
	for _, space := range spaces {
		for _, v := range space {
			k := b.bucketOf[v]
			if k < 0 {
				k = int32(len(count))
				b.bucketOf[v] = k
				b.keys = append(b.keys, v)
				count = append(count, 0)
			}
			count[k]++
		}
	}
	b.start = b.start[:0]
	b.start = append(b.start, 0)
	for k, c := range count {
		b.start = append(b.start, b.start[k]+c)
	}
	total := int(b.start[len(count)])
	if cap(b.entries) < total {
		b.entries = make([]bucketEntry, total)
	}
	b.entries = b.entries[:total]
	next := append([]int32(nil), b.start[:len(count)]...)
	for j, space := range spaces {
		for i, v := range space {
			k := b.bucketOf[v]
			b.entries[next[k]] = bucketEntry{target: int32(j), dist: dists[j][i]}
			next[k]++
		}
	}
	return checkKeys(over.Load())
}

// Rows writes the distances from each source (original ids) to the
// targets of the last Fill into out, row-major: out[i*T + j] is the
// distance from sources[i] to target j, or paths.Unreachable. Forward
// searches run on workers goroutines (0: all cores).
// O(|S| * (search space + bucket scans)).
func (b *Buckets) Rows(sources []int32, out []int64, workers int) error {
	h, nt := b.h, b.targets
	if len(out) != len(sources)*nt {
		return fmt.Errorf("hierarchy: table buffer holds %d values, want %d sources x %d targets", len(out), len(sources), nt)
	}
	for _, v := range sources {
		if err := h.checkVertex(v); err != nil {
			return err
		}
	}
	if workers <= 0 {
		workers = defaultWorkers()
	}
	pool := h.pool()
	var over atomic.Bool
	forChunks(len(sources), workers, 4, func(_, lo, hi int) {
		s := pool.get()
		defer pool.put(s)
		for i := lo; i < hi; i++ {
			row := out[i*nt : (i+1)*nt]
			for j := range row {
				row[j] = infinity
			}
			s.run(h, true, h.Rank[sources[i]], false)
			overflow := s.overflow
			for _, v := range s.settled {
				k := b.bucketOf[v]
				if k < 0 {
					continue
				}
				dv := s.dist[v]
				for _, e := range b.entries[b.start[k]:b.start[k+1]] {
					if d := dv + e.dist; d < row[e.target] {
						row[e.target] = d
					} else if d >= infinity {
						overflow = true
					}
				}
			}
			if overflow {
				over.Store(true)
			}
			for j, d := range row {
				if d >= infinity {
					row[j] = paths.Unreachable
				}
			}
		}
	})
	return checkKeys(over.Load())
}
