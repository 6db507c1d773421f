package gputest

import (
	"fmt"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
)

// CheckTree checks t as a shortest-path tree of g: paths.CheckTree
// (distances settle every arc; each parent is an arc of the right weight)
// and, since CheckTree alone would accept a loop of zero-weight arcs, that
// every reachable vertex's parents lead back to the source. A tree without
// parents passes the distance part only. O(n + m).
func CheckTree(g *graph.CSR, t *paths.Tree) error {
	if err := paths.CheckTree(g, t); err != nil {
		return fmt.Errorf("row %d: %w", t.Source, err)
	}
	if t.Parent == nil {
		return nil
	}
	n := int32(len(t.Dist))
	// state: 0 unvisited, 1 on the current walk, 2 known to reach s.
	state := make([]uint8, n)
	state[t.Source] = 2
	var walk []int32
	for v := int32(0); v < n; v++ {
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
				return fmt.Errorf("row %d: parents of %d end at a vertex other than the source", t.Source, v)
			}
		}
		if state[u] == 1 {
			return fmt.Errorf("row %d: parents of %d loop through %d", t.Source, v, u)
		}
		for _, w := range walk {
			state[w] = 2
		}
	}
	return nil
}

// CheckRow compares t with the reference distances want and, when
// parents, checks it with CheckTree; without parents t must have none.
func CheckRow(g *graph.CSR, t *paths.Tree, want []int64, parents bool) error {
	if err := CompareDistances(t, want); err != nil {
		return err
	}
	switch {
	case !parents && t.Parent != nil:
		return fmt.Errorf("row %d: parents though none were asked for", t.Source)
	case parents && t.Parent == nil:
		return fmt.Errorf("row %d: no parents", t.Source)
	case parents:
		return CheckTree(g, t)
	}
	return nil
}
