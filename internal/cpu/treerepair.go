package cpu

import (
	"context"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
)

// Floyd-Warshall predecessors are always tight (parent[s][v] = u only when
// d(s, u) + w(u, v) = d(s, v)), but tight arcs can close a cycle when the
// graph has a zero-weight cycle, and the blocked algorithm's reordered
// updates do produce such parent cycles. Graphs whose weights are all
// positive have no zero-weight cycle and need no repair.

// repairParentRows finds the rows of an n x n predecessor matrix whose
// parent pointers form a cycle, and rebuilds each such row as a
// breadth-first tree of tight arcs from the source, which reaches every
// reachable vertex since shortest paths consist of tight arcs. O(n^2) to
// check, O(n + m) per repaired row, rows in parallel.
func repairParentRows[D distance](ctx context.Context, g *graph.CSR, d []D, p []int32, inf D, workers int) error {
	n := int(g.N)
	return forEach(ctx, n, workers, func() func(i int) error {
		mark := make([]int32, n)
		queue := make([]int32, 0, n)
		return func(i int) error {
			row := i * n
			dist, parent := d[row:row+n], p[row:row+n]
			if !hasParentCycle(parent, mark) {
				return nil
			}
			rebuildTightTree(g, int32(i), dist, parent, inf, queue)
			return nil
		}
	})
}

// hasParentCycle reports whether following parents from some vertex
// returns to it. Each vertex is walked once. O(n).
func hasParentCycle(parent, mark []int32) bool {
	for i := range mark {
		mark[i] = -1
	}
	for start := range int32(len(parent)) {
		u := start
		for u != paths.NoParent && mark[u] == -1 {
			mark[u] = start
			u = parent[u]
		}
		if u != paths.NoParent && mark[u] == start {
			return true
		}
	}
	return false
}

// rebuildTightTree replaces parent with a breadth-first tree from s over
// the arcs (u, v) with dist[u] + w(u, v) = dist[v]. O(n + m).
func rebuildTightTree[D distance](g *graph.CSR, s int32, dist []D, parent []int32, inf D, queue []int32) {
	for v := range parent {
		parent[v] = paths.NoParent
	}
	queue = append(queue[:0], s)
	for head := 0; head < len(queue); head++ {
		u := queue[head]
		for a := g.Offsets[u]; a < g.Offsets[u+1]; a++ {
			v := g.Targets[a]
			if v == s || parent[v] != paths.NoParent || dist[v] >= inf {
				continue
			}
			if dist[u]+D(g.Weights[a]) == dist[v] {
				parent[v] = u
				queue = append(queue, v)
			}
		}
	}
}
