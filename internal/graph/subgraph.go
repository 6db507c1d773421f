package graph

import "fmt"

// Keep returns the subgraph of e induced by the vertices v with keep[v]
// true: its vertices are the kept ones renumbered densely in increasing
// old id, with old[newID] = oldID, and its arcs are e's arcs whose both
// endpoints are kept, in e's order. arcIndex[i] is the index in e of the
// kept arc i, so columns that run beside e's arcs can follow them. A road
// network keeps its largest strongly connected component this way (see
// StrongComponents).
//
// keep must have one entry per vertex of e; Keep panics otherwise, as the
// caller built it. O(n + m) time; besides the result, 4 bytes a vertex for
// the renumbering.
func Keep(e *EdgeList, keep []bool) (sub *EdgeList, old []int32, arcIndex []int64) {
	if len(keep) != int(e.N) {
		panic(fmt.Sprintf("graph: Keep got %d flags for %d vertices", len(keep), e.N))
	}
	newID := make([]int32, e.N)
	kept := int32(0)
	for v, k := range keep {
		if k {
			newID[v] = kept
			kept++
		} else {
			newID[v] = -1
		}
	}
	old = make([]int32, 0, kept)
	for v, k := range keep {
		if k {
			old = append(old, int32(v))
		}
	}

	// Count first, so every result array is allocated at its final size:
	// the arc arrays are the bulk of the memory.
	m := 0
	for i, u := range e.Src {
		if keep[u] && keep[e.Dst[i]] {
			m++
		}
	}
	sub = NewEdgeList(kept, m)
	arcIndex = make([]int64, 0, m)
	for i, u := range e.Src {
		if nu, nv := newID[u], newID[e.Dst[i]]; nu >= 0 && nv >= 0 {
			sub.Add(nu, nv, e.Weight[i])
			arcIndex = append(arcIndex, int64(i))
		}
	}
	return sub, old, arcIndex
}
