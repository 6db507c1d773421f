package paths

import "github.com/pathflow/pathflow/internal/graph"

// Parent arrays built from exact distances are not always trees: where
// arcs of weight zero (or below) close a cycle of tight arcs, two vertices
// can each pick the other as parent. Every backend mends such rows the
// same way, with a TreeRepair.

// Distance is the type of a distance row: int32 (with graph.Inf32 as "no
// path") or int64.
type Distance interface{ ~int32 | ~int64 }

// TreeRepair is one goroutine's scratch space for checking and mending
// parent rows, reused for every row so that checking allocates nothing.
type TreeRepair struct {
	mark  []int32
	queue []int32
}

// NewTreeRepair returns scratch space for rows of n vertices.
func NewTreeRepair(n int) *TreeRepair {
	return &TreeRepair{mark: make([]int32, n), queue: make([]int32, 0, n)}
}

// ParentCycle returns a vertex on a cycle of parent pointers (arcs
// parent[v] -> v), or -1 when following parents from every vertex ends at
// NoParent. Each vertex is walked once: a walk stops at a vertex an
// earlier walk marked, and a walk that meets its own mark has closed a
// cycle. O(n).
func (r *TreeRepair) ParentCycle(parent []int32) int32 {
	mark := r.mark[:len(parent)]
	for i := range mark {
		mark[i] = -1
	}
	for start := range int32(len(parent)) {
		u := start
		for u != NoParent && mark[u] == -1 {
			mark[u] = start
			u = parent[u]
		}
		if u != NoParent && mark[u] == start {
			return u
		}
	}
	return -1
}

// Repair makes parent a tree rooted at source when it is not one: if the
// parents close a cycle, it rebuilds them as a breadth-first tree over the
// tight arcs (dist[u] + w == dist[v]) from source, which reaches every
// reachable vertex because shortest paths consist of tight arcs. dist must
// be exact, with values >= inf for "no path". It reports whether the row
// was rebuilt. O(n) to check, O(n + m) to rebuild.
func Repair[D Distance](r *TreeRepair, g *graph.CSR, source int32, dist []D, inf D, parent []int32) bool {
	return repairOn(r, g, g.Weights, source, dist, inf, parent)
}

// repairOn is Repair over weights, g's or another value per arc in g's
// order (metric keys, for rows of key sums).
func repairOn[D Distance, W ~int32 | ~int64](r *TreeRepair, g *graph.CSR, weights []W, source int32, dist []D, inf D, parent []int32) bool {
	if r.ParentCycle(parent) < 0 {
		return false
	}
	for v := range parent {
		parent[v] = NoParent
	}
	queue := append(r.queue[:0], source)
	for head := 0; head < len(queue); head++ {
		u := queue[head]
		for a := g.Offsets[u]; a < g.Offsets[u+1]; a++ {
			v := g.Targets[a]
			if v == source || parent[v] != NoParent || dist[v] >= inf {
				continue
			}
			if int64(dist[u])+int64(weights[a]) == int64(dist[v]) {
				parent[v] = u
				queue = append(queue, v)
			}
		}
	}
	r.queue = queue[:0]
	return true
}

// MayLoop reports whether tight arcs of g can close a cycle of parent
// choices, which only a whole row's repair resolves (Repair), so that a
// producer may not find a cell's parent from the row's few asked cells.
// Around such a cycle every distance is the same, so each of its arcs
// weighs 0 (for rows of (weight, metric) keys, keyed: weight and metric
// 0), and an arc from a vertex to itself is never a parent: a cycle of
// choices needs a directed cycle of such arcs between distinct vertices.
// Without one (the zero-length segments of a road network run one way
// and in no ring) every row's parents are each vertex's smallest tight
// in-neighbour. A negative weight may always loop. O(1) for a graph whose
// recorded weights are all positive (graph.CSR.Recorded), else O(n + m),
// and the zero arcs' cycle by Kahn's order.
func MayLoop(g *graph.CSR, keyed bool) bool {
	if r, ok := g.Recorded(); ok && r.MinWeight > 0 {
		return false
	}
	var zero [][2]int32 // tail, head
	for u := range g.N {
		for a := g.Offsets[u]; a < g.Offsets[u+1]; a++ {
			w, v := g.Weights[a], g.Targets[a]
			if w < 0 {
				return true
			}
			if w == 0 && v != u && (!keyed || g.Metric[a] == 0) {
				zero = append(zero, [2]int32{u, v})
			}
		}
	}
	return hasCycle(zero)
}

// EdgesMayLoop is MayLoop(g, false) for the arc list e, for a reader that
// holds no CSR of it. O(m), and the zero arcs' cycle by Kahn's order.
func EdgesMayLoop(e *graph.EdgeList) bool {
	var zero [][2]int32 // tail, head
	for a, w := range e.Weight {
		if w < 0 {
			return true
		}
		if w == 0 && e.Src[a] != e.Dst[a] {
			zero = append(zero, [2]int32{e.Src[a], e.Dst[a]})
		}
	}
	return hasCycle(zero)
}

// hasCycle reports whether the arcs (tail, head) close a directed cycle:
// Kahn's order, repeatedly taking vertices no remaining arc enters,
// leaves some vertex untaken exactly when they do. O(arcs).
func hasCycle(arcs [][2]int32) bool {
	if len(arcs) == 0 {
		return false
	}
	indegree := map[int32]int{}
	out := map[int32][]int32{}
	for _, a := range arcs {
		indegree[a[1]]++
		if _, ok := indegree[a[0]]; !ok {
			indegree[a[0]] = 0
		}
		out[a[0]] = append(out[a[0]], a[1])
	}
	var ready []int32
	for v, d := range indegree {
		if d == 0 {
			ready = append(ready, v)
		}
	}
	taken := 0
	for len(ready) > 0 {
		u := ready[len(ready)-1]
		ready = ready[:len(ready)-1]
		taken++
		for _, v := range out[u] {
			if indegree[v]--; indegree[v] == 0 {
				ready = append(ready, v)
			}
		}
	}
	return taken < len(indegree)
}
