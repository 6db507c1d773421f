package graphtest

import (
	"container/heap"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
)

// FloydWarshall is the textbook O(n^3) all-pairs algorithm in int64: row s
// of the result holds the distances from s, paths.Unreachable for none.
// negative is a vertex with a negative diagonal (on or reaching a negative
// cycle), or -1. Parallel arcs count with their smallest weight.
func FloydWarshall(e *graph.EdgeList) (dist []int64, negative int32) {
	n := int(e.N)
	dist = make([]int64, n*n)
	for i := range dist {
		dist[i] = paths.Unreachable
	}
	for v := 0; v < n; v++ {
		dist[v*n+v] = 0
	}
	for i := range e.Src {
		at := int(e.Src[i])*n + int(e.Dst[i])
		dist[at] = min(dist[at], int64(e.Weight[i]))
	}
	for k := 0; k < n; k++ {
		for i := 0; i < n; i++ {
			dik := dist[i*n+k]
			if dik == paths.Unreachable {
				continue
			}
			for j := 0; j < n; j++ {
				if dkj := dist[k*n+j]; dkj != paths.Unreachable && dik+dkj < dist[i*n+j] {
					dist[i*n+j] = dik + dkj
				}
			}
		}
	}
	for v := 0; v < n; v++ {
		if dist[v*n+v] < 0 {
			return dist, int32(v)
		}
	}
	return dist, -1
}

// MatrixRows returns a reference function for CheckRow and CheckBlock that
// serves the rows of an n x n matrix such as FloydWarshall's.
func MatrixRows(n int32, dist []int64) func(s int32) []int64 {
	return func(s int32) []int64 { return dist[int64(s)*int64(n) : int64(s+1)*int64(n)] }
}

// Dijkstra returns the distances from source in g, whose weights must be
// non-negative; paths.Unreachable for vertices it cannot reach.
// O((n + m) log n).
func Dijkstra(g *graph.CSR, source int32) []int64 {
	dist := make([]int64, g.N)
	for i := range dist {
		dist[i] = paths.Unreachable
	}
	dist[source] = 0
	q := &queue{{source, 0}}
	for q.Len() > 0 {
		it := heap.Pop(q).(item)
		if it.d > dist[it.v] {
			continue
		}
		for i := g.Offsets[it.v]; i < g.Offsets[it.v+1]; i++ {
			v, d := g.Targets[i], it.d+int64(g.Weights[i])
			if d < dist[v] {
				dist[v] = d
				heap.Push(q, item{v, d})
			}
		}
	}
	return dist
}

// BellmanFord returns the distances from source in g, any weights;
// paths.Unreachable for vertices it cannot reach. ok is false, and dist
// nil, when a negative cycle is reachable from source. O(n * m).
func BellmanFord(g *graph.CSR, source int32) (dist []int64, ok bool) {
	dist = make([]int64, g.N)
	for i := range dist {
		dist[i] = paths.Unreachable
	}
	dist[source] = 0
	for round := int32(0); round <= g.N; round++ {
		changed := false
		for u := int32(0); u < g.N; u++ {
			if dist[u] == paths.Unreachable {
				continue
			}
			for i := g.Offsets[u]; i < g.Offsets[u+1]; i++ {
				if v, d := g.Targets[i], dist[u]+int64(g.Weights[i]); d < dist[v] {
					dist[v], changed = d, true
				}
			}
		}
		if !changed {
			return dist, true
		}
	}
	return nil, false
}

type item struct {
	v int32
	d int64
}

type queue []item

func (q queue) Len() int           { return len(q) }
func (q queue) Less(i, j int) bool { return q[i].d < q[j].d }
func (q queue) Swap(i, j int)      { q[i], q[j] = q[j], q[i] }
func (q *queue) Push(x any)        { *q = append(*q, x.(item)) }
func (q *queue) Pop() any {
	old := *q
	it := old[len(old)-1]
	*q = old[:len(old)-1]
	return it
}

// Lexicographic returns, for every vertex, the weight and the metric
// (g.Metric, which must be set) of the path from source that is shortest
// by (weight, metric) compared as pairs; paths.Unreachable for both where
// there is none. Weights and metrics must be non-negative. It compares
// pairs directly, by rounds of relaxation, as a reference independent of
// the packed keys the algorithms use. O(n * m).
func Lexicographic(g *graph.CSR, source int32) (dist, metric []int64) {
	dist = make([]int64, g.N)
	metric = make([]int64, g.N)
	for i := range dist {
		dist[i], metric[i] = paths.Unreachable, paths.Unreachable
	}
	dist[source], metric[source] = 0, 0
	for changed := true; changed; {
		changed = false
		for u := int32(0); u < g.N; u++ {
			if dist[u] == paths.Unreachable {
				continue
			}
			for i := g.Offsets[u]; i < g.Offsets[u+1]; i++ {
				v := g.Targets[i]
				d, m := dist[u]+int64(g.Weights[i]), metric[u]+int64(g.Metric[i])
				if d < dist[v] || (d == dist[v] && m < metric[v]) {
					dist[v], metric[v], changed = d, m, true
				}
			}
		}
	}
	return dist, metric
}
