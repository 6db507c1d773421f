package paths

import (
	"fmt"

	"github.com/pathflow/pathflow/internal/graph"
)

// CheckTree verifies that t is a consistent shortest-path tree of g: the
// source has distance 0 and no parent, unreachable vertices have no parent,
// and every other vertex v has an arc parent[v] -> v with
// dist[v] == dist[parent[v]] + w. It also checks that no arc can still be
// relaxed, which together with the parent check proves the distances are
// shortest (for graphs without negative cycles). O(N + M).
func CheckTree(g *graph.CSR, t *Tree) error {
	if len(t.Dist) != int(g.N) {
		return fmt.Errorf("paths: tree has %d distances for %d vertices", len(t.Dist), g.N)
	}
	if t.Dist[t.Source] != 0 {
		return fmt.Errorf("paths: source %d has distance %d, want 0", t.Source, t.Dist[t.Source])
	}
	for u := int32(0); u < g.N; u++ {
		if t.Dist[u] == Unreachable {
			continue
		}
		for i := g.Offsets[u]; i < g.Offsets[u+1]; i++ {
			v, w := g.Targets[i], int64(g.Weights[i])
			if t.Dist[v] == Unreachable || t.Dist[u]+w < t.Dist[v] {
				return fmt.Errorf("paths: arc %d -> %d (w %d) still relaxes: dist %d + %d < %s",
					u, v, w, t.Dist[u], w, distString(t.Dist[v]))
			}
		}
	}
	return CheckParents(g, t)
}

// CheckParents verifies the parent array of t, unless it is nil, against
// g and t's distances: the source and unreachable vertices have no parent,
// and every other vertex v has an arc parent[v] -> v with dist[v] ==
// dist[parent[v]] + w. It does not check that the distances are shortest,
// so it also fits rows cut short by a distance cutoff. O(N + M).
func CheckParents(g *graph.CSR, t *Tree) error {
	if t.Parent == nil {
		return nil
	}
	if len(t.Parent) != int(g.N) {
		return fmt.Errorf("paths: tree has %d parents for %d vertices", len(t.Parent), g.N)
	}
	for v := int32(0); v < g.N; v++ {
		p := t.Parent[v]
		switch {
		case v == t.Source || t.Dist[v] == Unreachable:
			if p != NoParent {
				return fmt.Errorf("paths: vertex %d (source or unreachable) has parent %d", v, p)
			}
		case p < 0 || p >= g.N:
			return fmt.Errorf("paths: reachable vertex %d has parent %d", v, p)
		case t.Dist[p] == Unreachable || !hasArc(g, p, v, t.Dist[v]-t.Dist[p]):
			return fmt.Errorf("paths: no arc %d -> %d of weight dist[%d] - dist[%d] = %d",
				p, v, v, p, t.Dist[v]-t.Dist[p])
		}
	}
	return nil
}

func hasArc(g *graph.CSR, u, v int32, w int64) bool {
	for i := g.Offsets[u]; i < g.Offsets[u+1]; i++ {
		if g.Targets[i] == v && int64(g.Weights[i]) == w {
			return true
		}
	}
	return false
}

func distString(d int64) string {
	if d == Unreachable {
		return "unreachable"
	}
	return fmt.Sprint(d)
}
