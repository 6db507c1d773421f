package shortest

import (
	"context"
	"math"
	"slices"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
)

// JohnsonSearches prepares Johnson's algorithm on a validated g and
// returns its row searches, suited to many sources on large sparse graphs:
// when some weight is negative, Bellman-Ford from a virtual source joined
// to every vertex by a 0 arc gives potentials h with w(u, v) + h(u) - h(v)
// >= 0 for every arc; Dijkstra then runs from each source on the
// reweighted arcs, and d(s, v) = d'(s, v) - h(s) + h(v). Without negative
// weights it is plain Dijkstra. Predecessors are the same under
// reweighting.
//
// A negative cycle anywhere in the graph gives a *NegativeCycleError, even
// one no requested source reaches. A search stops beyond limit (see
// dijkstraInto), shifted into reweighted distances.
//
// Preparation takes O(n m) time in the worst case and O(n + m) space; each
// row O((n + m) log n).
func JohnsonSearches(ctx context.Context, g *graph.CSR, limit int64) (func() RowSearch, error) {
	lo, hi := g.WeightRange()
	positive := g.M() == 0 || lo > 0
	// Reweighted distances are d(s, v) + h(s) - h(v) with |h| <= bound,
	// so leave room for three bounds.
	if err := checkDistanceBound(g.N, lo, hi, math.MaxInt64/4); err != nil {
		return nil, err
	}
	if lo >= 0 {
		return DijkstraSearches(g, positive, limit), nil
	}
	h, err := potentials(ctx, g)
	if err != nil {
		return nil, err
	}
	reweighted := make([]int64, len(g.Weights))
	for u := range g.N {
		for i := g.Offsets[u]; i < g.Offsets[u+1]; i++ {
			reweighted[i] = int64(g.Weights[i]) + h[u] - h[g.Targets[i]]
		}
	}
	// d(s, v) <= limit means d'(s, v) <= limit + h(s) - h(v), which is at
	// most limit + h(s) - min h: a bound on the reweighted distances that
	// keeps every vertex within limit.
	minH := slices.Min(h)
	return func() RowSearch {
		// Reweighting makes every arc of a shortest path weigh zero or
		// more, many exactly zero: the first arc in stays the parent.
		search := newDijkstraSearch(g.N, false)
		return func(ctx context.Context, s int32, dist []int64, parent []int32) error {
			shifted := limit
			if shift := h[s] - minH; limit <= math.MaxInt64-shift {
				shifted += shift
			} else {
				shifted = math.MaxInt64
			}
			if err := dijkstraInto(ctx, search, g.Offsets, g.Targets, reweighted, s, dist, parent, plainRow, shifted, nil); err != nil {
				return err
			}
			for v, d := range dist {
				if d != paths.Unreachable {
					dist[v] = d - h[s] + h[v]
				}
			}
			return nil
		}
	}, nil
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
	if err := newBellmanFordSearch(g.N).run(ctx, g, h, parent, starts, math.MaxInt64); err != nil {
		return nil, err
	}
	return h, nil
}
