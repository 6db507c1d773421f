package hierarchy

import (
	"fmt"
	"slices"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
)

// Query answers point-to-point queries on one hierarchy; it holds one
// goroutine's scratch space, so use one Query per goroutine.
type Query struct {
	h        *Hierarchy
	fwd, bwd *upSearch
	// overflow says that the last query met a path too long for a key
	// (checkKeys).
	overflow bool
}

// NewQuery returns a Query on h, with O(n) scratch space.
func NewQuery(h *Hierarchy) *Query {
	return &Query{h: h, fwd: newUpSearch(h.N), bwd: newUpSearch(h.N)}
}

// meet runs the upward search from s and the backward one from t (both
// original ids) and returns the best meeting vertex and the distance, or
// -1 and paths.Unreachable. O(search spaces).
func (q *Query) meet(s, t int32, track bool) (int32, int64) {
	h := q.h
	q.fwd.run(h, true, h.Rank[s], track)
	q.bwd.run(h, false, h.Rank[t], track)
	best, top := infinity, int32(-1)
	q.overflow = q.fwd.overflow || q.bwd.overflow
	for _, v := range q.fwd.settled {
		if d := q.fwd.dist[v] + q.bwd.get(v); d < best {
			best, top = d, v
		} else if d >= infinity && q.bwd.get(v) < infinity {
			q.overflow = true
		}
	}
	if top < 0 {
		return -1, paths.Unreachable
	}
	return top, best
}

// Distance returns the length of a shortest path from s to t (original
// ids), or paths.Unreachable. O(search spaces), a few hundred vertices on
// road networks.
func (q *Query) Distance(s, t int32) (int64, error) {
	if err := q.h.checkVertex(s); err != nil {
		return 0, err
	}
	if err := q.h.checkVertex(t); err != nil {
		return 0, err
	}
	_, d := q.meet(s, t, false)
	return d, checkKeys(q.overflow)
}

// Path returns the length of a shortest path from s to t and its vertices
// in the original graph, s and t included, shortcuts unpacked through
// their middle vertices; paths.Unreachable and nil when there is none.
// O(search spaces + path length * log d).
func (q *Query) Path(s, t int32) (int64, []int32, error) {
	h := q.h
	if err := h.checkVertex(s); err != nil {
		return 0, nil, err
	}
	if err := h.checkVertex(t); err != nil {
		return 0, nil, err
	}
	top, d := q.meet(s, t, true)
	if err := checkKeys(q.overflow); err != nil {
		return 0, nil, err
	}
	if top < 0 {
		return paths.Unreachable, nil, nil
	}
	// The up part, from top back to s, then forwards.
	var up []int32
	for v := top; q.fwd.parent[v] >= 0; v = q.fwd.parent[v] {
		up = append(up, v)
	}
	slices.Reverse(up)
	path := []int32{s}
	prev := h.Rank[s]
	for _, v := range up {
		a := q.fwd.parentArc[v]
		h.unpack(prev, v, h.UpMiddle[a], &path)
		prev = v
	}
	// The down part: the backward search's parents lead from top to t.
	for v := top; q.bwd.parent[v] >= 0; v = q.bwd.parent[v] {
		next := q.bwd.parent[v]
		h.unpack(v, next, h.DownMiddle[q.bwd.parentArc[v]], &path)
	}
	return d, path, nil
}

// unpack appends the original vertices of the hierarchy arc from -> to
// with middle vertex mid, after from and up to to included. The middle
// vertex is below both ends, so from -> mid is a Down arc of mid and
// mid -> to an Up arc of mid. O(original arcs * log d).
func (h *Hierarchy) unpack(from, to, mid int32, path *[]int32) {
	if mid == NoMiddle {
		*path = append(*path, h.Order[to])
		return
	}
	h.unpack(from, mid, h.DownMiddle[arcIn(&h.Down, mid, from)], path)
	h.unpack(mid, to, h.UpMiddle[arcIn(&h.Up, mid, to)], path)
}

// arcIn returns the index of the arc of row r of c whose target is x;
// rows are sorted by target, and the arc must exist. O(log d).
func arcIn(c *graph.CSR, r, x int32) int64 {
	lo := c.Offsets[r]
	i, _ := slices.BinarySearch(c.Targets[lo:c.Offsets[r+1]], x)
	return lo + int64(i)
}

// checkVertex rejects an id outside 0..N-1, O(1).
func (h *Hierarchy) checkVertex(v int32) error {
	if v < 0 || v >= h.N {
		return fmt.Errorf("hierarchy: vertex %d is not in 0..%d", v, h.N-1)
	}
	return nil
}
