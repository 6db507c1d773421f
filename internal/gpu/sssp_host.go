package gpu

import (
	"math"
	"sync"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
)

// Host-side pieces of the single-source searches: no CUDA, so they are
// tested in every build.

// reverseCSR returns g with every arc reversed: row v lists the arcs
// entering v, their sources as Targets, in increasing source order (a
// stable counting sort). O(n + m).
func reverseCSR(g *graph.CSR) *graph.CSR {
	r := &graph.CSR{
		N:       g.N,
		Offsets: make([]int64, int(g.N)+1),
		Targets: make([]int32, len(g.Targets)),
		Weights: make([]int32, len(g.Weights)),
	}
	for _, v := range g.Targets {
		r.Offsets[v+1]++
	}
	for v := int32(0); v < g.N; v++ {
		r.Offsets[v+1] += r.Offsets[v]
	}
	next := make([]int64, g.N)
	copy(next, r.Offsets[:g.N])
	for u := int32(0); u < g.N; u++ {
		for i := g.Offsets[u]; i < g.Offsets[u+1]; i++ {
			v := g.Targets[i]
			r.Targets[next[v]] = u
			r.Weights[next[v]] = g.Weights[i]
			next[v]++
		}
	}
	return r
}

// parentScratch is one goroutine's working memory for checking and mending
// parent rows, reused for every row so that a run allocates nothing per
// row.
type parentScratch struct {
	state []uint8
	walk  []int32
	queue []int32
}

func newParentScratch(n int) *parentScratch {
	return &parentScratch{state: make([]uint8, n), queue: make([]int32, 0, n)}
}

// parentsLoop reports whether following the parents of some reached vertex
// never arrives at source. With positive weights the device's parent pass
// cannot loop (a parent is strictly closer), but arcs of weight zero or
// below can make two vertices each other's smallest tight in-neighbour.
// O(n).
func (s *parentScratch) parentsLoop(source int32, dist, parent []int32) bool {
	// state: 0 unvisited, 1 on the current walk, 2 leads to the source.
	state := s.state[:len(parent)]
	clear(state)
	state[source] = 2
	for v := range parent {
		if dist[v] == graph.Inf32 || state[v] == 2 {
			continue
		}
		s.walk = s.walk[:0]
		u := int32(v)
		for state[u] == 0 {
			state[u] = 1
			s.walk = append(s.walk, u)
			u = parent[u]
			if u < 0 {
				return true
			}
		}
		if state[u] == 1 {
			return true
		}
		for _, w := range s.walk {
			state[w] = 2
		}
	}
	return false
}

// tightTreeParents rebuilds parent from exact distances by a breadth-first
// search from source over the tight arcs (dist[u] + w == dist[v]): every
// reached vertex gets the vertex it was first discovered from, so the
// parents form a tree even where zero-weight cycles make the device's
// smallest-neighbour rule loop. O(n + m).
func (s *parentScratch) tightTreeParents(g *graph.CSR, source int32, dist, parent []int32) {
	for v := range parent {
		parent[v] = paths.NoParent
	}
	seen := s.state[:len(parent)]
	clear(seen)
	seen[source] = 1
	queue := append(s.queue[:0], source)
	for head := 0; head < len(queue); head++ {
		u := queue[head]
		du := int64(dist[u])
		for i := g.Offsets[u]; i < g.Offsets[u+1]; i++ {
			v := g.Targets[i]
			if seen[v] == 0 && dist[v] != graph.Inf32 && du+int64(g.Weights[i]) == int64(dist[v]) {
				seen[v] = 1
				parent[v] = u
				queue = append(queue, v)
			}
		}
	}
	s.queue = queue[:0]
}

// repairParents mends, in place, every row of b whose parents loop (see
// parentsLoop), the rows shared out among one goroutine per scratch. Only
// graphs with weights <= 0 need it. O(rows * n), plus O(n + m) per mended
// row.
func repairParents(g *graph.CSR, b *backend.Rows, scratch []*parentScratch) {
	n, rows := b.Width, b.Len()
	if b.Parent == nil || rows == 0 {
		return
	}
	workers := min(len(scratch), rows)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := scratch[w]
			for i := w; i < rows; i += workers {
				dist, parent := b.Dist32[i*n:(i+1)*n], b.Parent[i*n:(i+1)*n]
				if s.parentsLoop(b.Sources[i], dist, parent) {
					s.tightTreeParents(g, b.Sources[i], dist, parent)
				}
			}
		}()
	}
	wg.Wait()
}

// negativeCycleFrom returns a vertex on a negative cycle reachable from
// source, or -1 if there is none, by a queue-based Bellman-Ford in int64.
// After every n relaxations it looks for a cycle among the parents: such a
// cycle always has negative weight, and one appears soon after a negative
// cycle has been gone round, so the search stops long before the n rounds
// a plain Bellman-Ford would take. O(n * m) at worst.
func negativeCycleFrom(g *graph.CSR, source int32) int32 {
	n := int(g.N)
	dist := make([]int64, n)
	parent := make([]int32, n)
	for v := range dist {
		dist[v], parent[v] = math.MaxInt64, paths.NoParent
	}
	queued := make([]bool, n)
	// A ring of n slots: each vertex is queued at most once at a time.
	ring := make([]int32, n)
	head, size := 0, 0
	push := func(v int32) {
		ring[(head+size)%n] = v
		size++
		queued[v] = true
	}
	dist[source] = 0
	push(source)
	scratch := newParentScratch(n)
	relaxed := 0
	for size > 0 {
		u := ring[head]
		head, size = (head+1)%n, size-1
		queued[u] = false
		for i := g.Offsets[u]; i < g.Offsets[u+1]; i++ {
			v, d := g.Targets[i], dist[u]+int64(g.Weights[i])
			if d >= dist[v] {
				continue
			}
			dist[v], parent[v] = d, u
			if relaxed++; relaxed >= n {
				relaxed = 0
				if c := scratch.parentCycle(parent); c >= 0 {
					return c
				}
			}
			if !queued[v] {
				push(v)
			}
		}
	}
	return -1
}

// parentCycle returns a vertex on a cycle of parent pointers, or -1. O(n).
func (s *parentScratch) parentCycle(parent []int32) int32 {
	// state: 0 unvisited, 1 on the current walk, 2 done.
	state := s.state[:len(parent)]
	clear(state)
	for v := range parent {
		if state[v] != 0 {
			continue
		}
		s.walk = s.walk[:0]
		u := int32(v)
		for u >= 0 && state[u] == 0 {
			state[u] = 1
			s.walk = append(s.walk, u)
			u = parent[u]
		}
		if u >= 0 && state[u] == 1 {
			return u
		}
		for _, w := range s.walk {
			state[w] = 2
		}
	}
	return -1
}
