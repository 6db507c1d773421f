package gpu

import (
	"runtime"
	"sync"

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

// treeFromRow converts one row of device results (int32 distances with
// graph.Inf32 for "not reached", parents with -1 for none) into a
// paths.Tree that owns its arrays; parent may be nil.
func treeFromRow(source int32, dist, parent []int32) *paths.Tree {
	t := &paths.Tree{Source: source, Dist: make([]int64, len(dist))}
	for v, d := range dist {
		if d == graph.Inf32 {
			t.Dist[v] = paths.Unreachable
		} else {
			t.Dist[v] = int64(d)
		}
	}
	if parent != nil {
		t.Parent = append([]int32(nil), parent...)
	}
	return t
}

// treesFromRows converts the rows of a batch on all cores; row i of dist
// (and parent, when not nil) holds n entries for sources[i].
func treesFromRows(n int, sources []int32, dist, parent []int32) []*paths.Tree {
	trees := make([]*paths.Tree, len(sources))
	workers := min(runtime.GOMAXPROCS(0), len(sources))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(sources); i += workers {
				var p []int32
				if parent != nil {
					p = parent[i*n : (i+1)*n]
				}
				trees[i] = treeFromRow(sources[i], dist[i*n:(i+1)*n], p)
			}
		}()
	}
	wg.Wait()
	return trees
}

// parentsLoop reports whether following the parents of some reached vertex
// never arrives at source. With positive weights the device's parent pass
// cannot loop (a parent is strictly closer), but arcs of weight zero or
// below can make two vertices each other's smallest tight in-neighbour.
// O(n).
func parentsLoop(source int32, dist, parent []int32) bool {
	// state: 0 unvisited, 1 on the current walk, 2 leads to the source.
	state := make([]uint8, len(parent))
	state[source] = 2
	var walk []int32
	for v := range parent {
		if dist[v] == graph.Inf32 || state[v] == 2 {
			continue
		}
		walk = walk[:0]
		u := int32(v)
		for state[u] == 0 {
			state[u] = 1
			walk = append(walk, u)
			u = parent[u]
			if u < 0 {
				return true
			}
		}
		if state[u] == 1 {
			return true
		}
		for _, w := range walk {
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
func tightTreeParents(g *graph.CSR, source int32, dist, parent []int32) {
	for v := range parent {
		parent[v] = paths.NoParent
	}
	seen := make([]bool, g.N)
	seen[source] = true
	queue := []int32{source}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		du := int64(dist[u])
		for i := g.Offsets[u]; i < g.Offsets[u+1]; i++ {
			v := g.Targets[i]
			if !seen[v] && dist[v] != graph.Inf32 && du+int64(g.Weights[i]) == int64(dist[v]) {
				seen[v] = true
				parent[v] = u
				queue = append(queue, v)
			}
		}
	}
}
