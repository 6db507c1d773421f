package gputest

import (
	"container/heap"
	"fmt"

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

// CompareRow checks row s of m against want (int64 distances with
// paths.Unreachable) and reports the first difference.
func CompareRow(m *paths.Matrix, s int32, want []int64) error {
	for v := int32(0); v < m.N; v++ {
		if got := m.Distance(s, v); got != want[v] {
			return fmt.Errorf("dist[%d][%d] = %s, want %s", s, v, show(got), show(want[v]))
		}
	}
	return nil
}

// CompareMatrix checks every row of m against want, an n x n row-major
// int64 matrix.
func CompareMatrix(m *paths.Matrix, want []int64) error {
	if int64(len(want)) != int64(m.N)*int64(m.N) {
		return fmt.Errorf("reference has %d cells for %d vertices", len(want), m.N)
	}
	for s := int32(0); s < m.N; s++ {
		if err := CompareRow(m, s, want[int64(s)*int64(m.N):int64(s+1)*int64(m.N)]); err != nil {
			return err
		}
	}
	return nil
}

// SameDistances checks that a and b hold the same distances.
func SameDistances(a, b *paths.Matrix) error {
	if a.N != b.N {
		return fmt.Errorf("matrices of %d and %d vertices", a.N, b.N)
	}
	for s := int32(0); s < a.N; s++ {
		for v := int32(0); v < a.N; v++ {
			if x, y := a.Distance(s, v), b.Distance(s, v); x != y {
				return fmt.Errorf("dist[%d][%d]: %s vs %s", s, v, show(x), show(y))
			}
		}
	}
	return nil
}

func show(d int64) string {
	if d == paths.Unreachable {
		return "unreachable"
	}
	return fmt.Sprint(d)
}
