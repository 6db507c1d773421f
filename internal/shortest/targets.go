package shortest

import (
	"context"
	"math"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
)

// TargetSearch computes one narrowed row: the distances (and parents,
// unless parent is nil) from source to targets[j] into dist[j] and
// parent[j], which hold paths.Unreachable and paths.NoParent when it is
// called. The values are those of the full row (RowSearch) at the
// targets. Each worker has its own, with its own scratch space.
type TargetSearch func(ctx context.Context, source int32, targets []int32, dist []int64, parent []int32) error

// rowScratch is a worker's full-width row, in which a search runs before
// its targets are copied out, coded as coding says (rowCoding).
type rowScratch struct {
	dist   []int64
	parent []int32
	coding rowCoding
}

// newRowScratch returns a scratch row in zeroRow coding: fresh zeroed
// memory, touched only where searches write, so a search that reaches few
// vertices costs nothing proportional to n. O(1) beyond the allocation.
func newRowScratch(n int32, withParents bool) *rowScratch {
	s := &rowScratch{dist: make([]int64, n), coding: zeroRow}
	if withParents {
		s.parent = make([]int32, n)
	}
	return s
}

// newFilledRowScratch returns a scratch row in plainRow coding, filled
// with paths.Unreachable and paths.NoParent, for searches that write
// output rows (RowSearch). O(n).
func newFilledRowScratch(n int32, withParents bool) *rowScratch {
	s := &rowScratch{dist: make([]int64, n), coding: plainRow}
	for v := range s.dist {
		s.dist[v] = paths.Unreachable
	}
	if withParents {
		s.parent = make([]int32, n)
		for v := range s.parent {
			s.parent[v] = paths.NoParent
		}
	}
	return s
}

// distance returns the distance the scratch row holds for v.
func (s *rowScratch) distance(v int32) int64 { return s.coding.distance(s.dist[v]) }

// clearAt makes the scratch row's cells at vertices unreachable and
// without parent again: what a stopped search wrote.
func (s *rowScratch) clearAt(vertices []int32) {
	unreachable, noParent := paths.Unreachable-s.coding.dist, paths.NoParent-s.coding.parent
	for _, v := range vertices {
		s.dist[v] = unreachable
	}
	if s.parent != nil {
		for _, v := range vertices {
			s.parent[v] = noParent
		}
	}
}

// gather copies the scratch row's cells at targets into dist and parent.
func (s *rowScratch) gather(targets []int32, dist []int64, parent []int32) {
	for j, v := range targets {
		dist[j] = s.coding.distance(s.dist[v])
	}
	if parent != nil {
		for j, v := range targets {
			parent[j] = s.coding.parentOf(s.parent[v])
		}
	}
}

// GatherSearches narrows the rows of any row search: each worker runs the
// full search into its scratch row, copies the targets out and resets the
// whole row. O(n) per row beyond the search; for Bellman-Ford and Johnson
// with negative weights, whose searches cannot stop at the targets.
func GatherSearches(n int32, newSearch func() RowSearch) func(withParents bool) TargetSearch {
	return func(withParents bool) TargetSearch {
		search := newSearch()
		scratch := newFilledRowScratch(n, withParents)
		return func(ctx context.Context, source int32, targets []int32, dist []int64, parent []int32) error {
			err := search(ctx, source, scratch.dist, scratch.parent)
			if err == nil {
				scratch.gather(targets, dist, parent)
			}
			for v := range scratch.dist {
				scratch.dist[v] = paths.Unreachable
			}
			for v := range scratch.parent {
				scratch.parent[v] = paths.NoParent
			}
			return err
		}
	}
}

// targetStop tells a Dijkstra search which vertices are its targets, so it
// ends once the last of them leaves the heap, and records the vertices the
// search wrote, so the scratch row is cleared in time proportional to the
// search rather than to n.
type targetStop struct {
	// mark[v] == round: v is a target not settled yet in this search.
	mark  []uint32
	round uint32
	left  int // targets not settled yet
	// touched lists each vertex whose distance the search set.
	touched []int32
}

func newTargetStop(n int32) *targetStop { return &targetStop{mark: make([]uint32, n)} }

// start begins a search for targets, which may repeat a vertex.
func (t *targetStop) start(targets []int32) {
	t.round++
	if t.round == 0 { // wrapped: old marks could read as current
		clear(t.mark)
		t.round = 1
	}
	t.left = 0
	for _, v := range targets {
		if t.mark[v] != t.round {
			t.mark[v] = t.round
			t.left++
		}
	}
	t.touched = t.touched[:0]
}

// settle records that u left the heap and reports whether it was the last
// target.
func (t *targetStop) settle(u int32) bool {
	if t.mark[u] != t.round {
		return false
	}
	t.mark[u] = 0
	t.left--
	return t.left == 0
}

// DijkstraTargetSearches returns the narrowed row searches of a checked
// graph: Dijkstra stopping at the row's last target (or beyond limit, as
// dijkstraInto), then copying the targets out of the scratch row and
// clearing what the search wrote. A row costs the search up to its
// farthest target, not the whole graph: the scratch row, heap index and
// target marks are fresh zeroed memory, never filled, so even the first
// search touches only what it reaches. positive is positiveWeights(g).
func DijkstraTargetSearches(g *graph.CSR, positive bool, limit int64) func(withParents bool) TargetSearch {
	return dijkstraTargetSearchesOn(g, g.Weights, positive, limit)
}

// dijkstraTargetSearchesOn is DijkstraTargetSearches over weights, g's or
// another value per arc in g's order (metric keys).
func dijkstraTargetSearchesOn[W arcWeight](g *graph.CSR, weights []W, positive bool, limit int64) func(withParents bool) TargetSearch {
	return func(withParents bool) TargetSearch {
		search := newDijkstraSearch(g.N, positive)
		scratch := newRowScratch(g.N, withParents)
		stop := newTargetStop(g.N)
		return func(ctx context.Context, source int32, targets []int32, dist []int64, parent []int32) error {
			if len(targets) == 0 {
				return nil
			}
			stop.start(targets)
			err := dijkstraInto(ctx, search, g.Offsets, g.Targets, weights, source, scratch.dist, scratch.parent, scratch.coding, limit, stop)
			if err == nil {
				scratch.gather(targets, dist, parent)
			}
			scratch.clearAt(stop.touched)
			return err
		}
	}
}

// DijkstraReach runs one Dijkstra search from source on a checked graph,
// stopped once every target has left the heap, and returns how many
// vertices it reached: what a row narrowed to targets costs next to a
// whole row (the benchmarks report it as a share of the graph).
// O((r + a) log r) for the r vertices reached and a arcs they leave by.
func DijkstraReach(ctx context.Context, g *graph.CSR, source int32, targets []int32) (int, error) {
	stop := newTargetStop(g.N)
	stop.start(targets)
	scratch := newRowScratch(g.N, true)
	search := newDijkstraSearch(g.N, positiveWeights(g))
	err := dijkstraInto(ctx, search, g.Offsets, g.Targets, g.Weights, source, scratch.dist, scratch.parent, scratch.coding, math.MaxInt64, stop)
	return len(stop.touched), err
}
