package paths

import (
	"fmt"

	"github.com/pathflow/pathflow/internal/graph"
)

// ParentFinder derives shortest-path trees by the parent rule from exact
// distances alone: a contraction hierarchy's PHAST rows, or a row whose
// path is read back (package routes). It holds one goroutine's scratch
// space.
type ParentFinder struct {
	g, in  *graph.CSR
	repair *TreeRepair
}

// NewParentFinder returns a ParentFinder for g, the graph the distances
// are of. O(n + m) for the reverse graph.
func NewParentFinder(g *graph.CSR) *ParentFinder {
	return &ParentFinder{g: g, in: g.Reverse(), repair: NewTreeRepair(int(g.N))}
}

// Fork returns a ParentFinder for another goroutine that shares f's
// reverse graph (O(n + m) memory, made once) and has scratch space of its
// own. O(n).
func (f *ParentFinder) Fork() *ParentFinder {
	return &ParentFinder{g: f.g, in: f.in, repair: NewTreeRepair(int(f.g.N))}
}

// Parents fills parent[v] with the smallest u such that u -> v is an arc
// and dist[u] + w(u, v) == dist[v] (a tight arc), NoParent for the
// source and unreachable vertices. Where arcs of weight zero close a
// cycle of such choices, the row is rebuilt with paths.Repair, as every
// backend does. dist must be exact distances from source, with
// Unreachable; dist and parent have one entry per vertex. O(n + m).
func (f *ParentFinder) Parents(source int32, dist []int64, parent []int32) error {
	if n := int(f.g.N); len(dist) != n || len(parent) != n || source < 0 || int(source) >= n {
		return fmt.Errorf("paths: parents of source %d need %d distances and parents, got %d and %d", source, n, len(dist), len(parent))
	}
	in := f.in
	for v := range parent {
		parent[v] = NoParent
		dv := dist[v]
		if int32(v) == source || dv == Unreachable {
			continue
		}
		for a := in.Offsets[v]; a < in.Offsets[v+1]; a++ {
			u := in.Targets[a]
			if du := dist[u]; u != int32(v) && du != Unreachable && du+int64(in.Weights[a]) == dv {
				parent[v] = u
				break
			}
		}
	}
	Repair(f.repair, f.g, source, dist, Unreachable, parent)
	return nil
}
