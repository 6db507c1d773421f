package shortest

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

// RepairParentRows mends, with paths.Repair, every row of an n x n
// predecessor matrix whose parent pointers form a cycle. O(n^2) to check,
// O(n + m) per repaired row, rows in parallel.
func RepairParentRows[D paths.Distance](ctx context.Context, g *graph.CSR, d []D, p []int32, inf D, workers int) error {
	n := int(g.N)
	return forEach(ctx, n, workers, func() func(i int) error {
		repair := paths.NewTreeRepair(n)
		return func(i int) error {
			row := i * n
			paths.Repair(repair, g, int32(i), d[row:row+n], inf, p[row:row+n])
			return nil
		}
	})
}
