package gputest

import (
	"fmt"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
)

// CheckRow checks row s of m as a shortest-path tree of g: paths.CheckTree
// (distances settle every arc; each parent is an arc of the right weight)
// and, since CheckTree alone would accept a loop of zero-weight arcs, that
// every reachable vertex's parents lead back to s. O(n + m).
func CheckRow(g *graph.CSR, m *paths.Matrix, s int32) error {
	t := m.Row(s)
	if err := paths.CheckTree(g, t); err != nil {
		return fmt.Errorf("row %d: %w", s, err)
	}
	if t.Parent == nil {
		return nil
	}
	// state: 0 unvisited, 1 on the current walk, 2 known to reach s.
	state := make([]uint8, m.N)
	state[s] = 2
	var walk []int32
	for v := int32(0); v < m.N; v++ {
		if !t.Reachable(v) || state[v] == 2 {
			continue
		}
		walk = walk[:0]
		u := v
		for state[u] == 0 {
			state[u] = 1
			walk = append(walk, u)
			u = t.Parent[u]
			if u == paths.NoParent {
				return fmt.Errorf("row %d: parents of %d end at a vertex other than the source", s, v)
			}
		}
		if state[u] == 1 {
			return fmt.Errorf("row %d: parents of %d loop through %d", s, v, u)
		}
		for _, w := range walk {
			state[w] = 2
		}
	}
	return nil
}
