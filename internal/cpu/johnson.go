package cpu

import (
	"context"
	"math"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
)

// Johnson computes all-pairs shortest paths with Johnson's algorithm,
// suited to large sparse graphs: when some weight is negative, Bellman-Ford
// from a virtual source joined to every vertex by a 0 arc gives potentials
// h with w(u, v) + h(u) - h(v) >= 0 for every arc; Dijkstra then runs from
// every source on the reweighted arcs, in parallel over workers goroutines
// (<= 0 means GOMAXPROCS), and d(s, v) = d'(s, v) - h(s) + h(v). Without
// negative weights it is plain repeated Dijkstra. Predecessors are the
// same under reweighting and are computed when withParents.
//
// A negative cycle anywhere in the graph gives a *NegativeCycleError.
// Distances are int32 when graph.FitsInt32Distances holds, int64
// otherwise.
//
// O(n m + n (n + m) log n) time with negative weights, O(n (n + m) log n)
// without; O(n^2) space for the result plus O(n) per worker.
func Johnson(ctx context.Context, e *graph.EdgeList, workers int, withParents bool) (*paths.Matrix, error) {
	return repeatedDijkstra(ctx, e, workerCount(workers), withParents, true)
}

// repeatedDijkstra runs Dijkstra from every source into a matrix, with
// Johnson's reweighting when reweight is set and the graph has negative
// weights; without reweight, negative weights are an error.
func repeatedDijkstra(ctx context.Context, e *graph.EdgeList, workers int, withParents, reweight bool) (*paths.Matrix, error) {
	if err := validateEdgeList(e); err != nil {
		return nil, err
	}
	if err := checkMatrixSize(int64(e.N)); err != nil {
		return nil, err
	}
	g := graph.BuildCSR(e)
	lo, hi := g.WeightRange()
	if lo < 0 && !reweight {
		return nil, negativeArcError(g, "dijkstra", "johnson or floyd-warshall")
	}
	// Reweighted distances are d(s, v) + h(s) - h(v) with |h| <= bound,
	// so leave room for three bounds.
	if err := checkDistanceBound(g.N, lo, hi, math.MaxInt64/4); err != nil {
		return nil, err
	}
	if lo >= 0 {
		return dijkstraRows(ctx, g.N, g.Offsets, g.Targets, g.Weights, nil, lo, hi, workers, withParents)
	}
	h, err := potentials(ctx, g)
	if err != nil {
		return nil, err
	}
	reweighted := make([]int64, len(g.Weights))
	for u := int32(0); u < g.N; u++ {
		for i := g.Offsets[u]; i < g.Offsets[u+1]; i++ {
			reweighted[i] = int64(g.Weights[i]) + h[u] - h[g.Targets[i]]
		}
	}
	return dijkstraRows(ctx, g.N, g.Offsets, g.Targets, reweighted, h, lo, hi, workers, withParents)
}

// potentials returns Johnson's vertex potentials: the distances from a
// virtual source with a 0 arc to every vertex, found by Bellman-Ford
// starting with every vertex at 0. O(n m) worst case.
func potentials(ctx context.Context, g *graph.CSR) ([]int64, error) {
	h := make([]int64, g.N)
	parent := make([]int32, g.N)
	starts := make([]int32, g.N)
	for v := range g.N {
		parent[v] = paths.NoParent
		starts[v] = v
	}
	if err := newBellmanFordSearch(g.N).run(ctx, g, h, parent, starts); err != nil {
		return nil, err
	}
	return h, nil
}

// dijkstraRows fills the matrix row by row, one Dijkstra search per source,
// and undoes the potentials h (nil when the weights were not reweighted).
func dijkstraRows[W arcWeight](ctx context.Context, n int32, offsets []int64, targets []int32, weights []W, h []int64, lo, hi int32, workers int, withParents bool) (*paths.Matrix, error) {
	size := int(n) * int(n)
	m := &paths.Matrix{N: n}
	small := graph.FitsInt32Distances(int64(n), lo, hi)
	if small {
		m.Dist32 = make([]int32, size)
	} else {
		m.Dist64 = make([]int64, size)
	}
	if withParents {
		m.Parent = make([]int32, size)
	}
	err := forEach(ctx, int(n), workers, func() func(i int) error {
		search := newDijkstraSearch(n)
		dist := make([]int64, n)
		var parent []int32
		if withParents {
			parent = make([]int32, n)
		}
		return func(i int) error {
			s := int32(i)
			for v := range dist {
				dist[v] = paths.Unreachable
			}
			for v := range parent {
				parent[v] = paths.NoParent
			}
			if err := dijkstraInto(ctx, search, offsets, targets, weights, s, dist, parent); err != nil {
				return err
			}
			if h != nil {
				for v, d := range dist {
					if d != paths.Unreachable {
						dist[v] = d - h[s] + h[v]
					}
				}
			}
			row := i * int(n)
			if small {
				out := m.Dist32[row : row+int(n)]
				for v, d := range dist {
					if d == paths.Unreachable {
						out[v] = graph.Inf32
					} else {
						out[v] = int32(d)
					}
				}
			} else {
				copy(m.Dist64[row:row+int(n)], dist)
			}
			if withParents {
				copy(m.Parent[row:row+int(n)], parent)
			}
			return nil
		}
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}
