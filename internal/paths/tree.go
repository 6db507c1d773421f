package paths

import (
	"math"
	"slices"

	"github.com/pathflow/pathflow/internal/graph"
)

// NoParent marks the source and unreachable vertices in parent arrays.
const NoParent int32 = -1

// Unreachable is the distance of a vertex the source cannot reach.
const Unreachable int64 = math.MaxInt64

// Widen converts an int32 distance, with graph.Inf32 (or more) for "no
// path", into an int64 one with Unreachable.
func Widen(d int32) int64 {
	if d < graph.Inf32 {
		return int64(d)
	}
	return Unreachable
}

// Tree is the result of a single-source search: distances and the
// shortest-path tree as a parent array.
type Tree struct {
	// Source is the vertex the search started from.
	Source int32
	// Dist[v] is the length of a shortest path from Source to v, or
	// Unreachable.
	Dist []int64
	// Parent[v] is the vertex before v on that path, or NoParent. Nil when
	// the algorithm was asked for distances only.
	Parent []int32
}

// NewTree returns a tree over n vertices with every vertex unreachable and
// no parents, ready for a search from source.
func NewTree(n int32, source int32, withParents bool) *Tree {
	t := &Tree{Source: source, Dist: make([]int64, n)}
	for i := range t.Dist {
		t.Dist[i] = Unreachable
	}
	if withParents {
		t.Parent = make([]int32, n)
		for i := range t.Parent {
			t.Parent[i] = NoParent
		}
	}
	return t
}

// Reachable reports whether v can be reached from the source.
func (t *Tree) Reachable(v int32) bool { return t.Dist[v] != Unreachable }

// ReachableCount returns the number of vertices reachable from the source,
// the source included.
func (t *Tree) ReachableCount() int {
	count := 0
	for _, d := range t.Dist {
		if d != Unreachable {
			count++
		}
	}
	return count
}

// From returns the source. O(1).
func (t *Tree) From() int32 { return t.Source }

// WeightTo returns the length of a shortest path from the source to v, or
// Unreachable. O(1).
func (t *Tree) WeightTo(v int32) int64 { return t.Dist[v] }

// To returns the vertex sequence from the source to v, both included, or
// nil when v is unreachable or the tree has no parents. O(path length).
func (t *Tree) To(v int32) []int32 {
	if t.Parent == nil || !t.Reachable(v) {
		return nil
	}
	return Trace(t.Parent, v)
}

// Trace follows parent from v back to the vertex with NoParent and returns
// the vertices in path order, v last; nil when the parents close a cycle
// before (never the case in a correct backend's rows). O(path length).
func Trace(parent []int32, v int32) []int32 {
	var reversed []int32
	for u := v; u != NoParent; u = parent[u] {
		reversed = append(reversed, u)
		if len(reversed) > len(parent) {
			return nil
		}
	}
	slices.Reverse(reversed)
	return reversed
}
