package input

import (
	"fmt"
	"sort"

	"github.com/pathflow/pathflow/internal/graph"
)

// Values of compute.ids: how the configuration names vertices.
const (
	IDsDense    = "dense"
	IDsOriginal = "original"
)

// VertexIDs maps between a loaded graph's dense ids (0..n-1, the ids of
// every output column) and the ids its input used (DIMACS 1-based ids,
// SNAP original ids; for generated and binary inputs the dense id).
type VertexIDs struct {
	n        int32
	original []int64 // nil: the identity
	// increasing is true when the original ids grow with the dense ids, as
	// every reader produces them: lookups are then binary searches and
	// ranges of original ids are well defined.
	increasing bool
	index      map[int64]int32 // lookups when not increasing
}

// Increasing reports whether the original ids grow with the dense ids, so
// that a range of original ids names a range of vertices.
func (ids *VertexIDs) Increasing() bool { return ids.increasing }

// NewVertexIDs returns the id mapping of a graph of n vertices with the
// input's vertex metadata vs (nil: identity ids). O(n).
func NewVertexIDs(n int32, vs *graph.Vertices) *VertexIDs {
	ids := &VertexIDs{n: n, increasing: true}
	if vs == nil || vs.OriginalID == nil {
		return ids
	}
	ids.original = vs.OriginalID
	for v := 1; v < len(ids.original); v++ {
		if ids.original[v] <= ids.original[v-1] {
			ids.increasing = false
			break
		}
	}
	if !ids.increasing {
		ids.index = make(map[int64]int32, len(ids.original))
		for v, o := range ids.original {
			ids.index[o] = int32(v)
		}
	}
	return ids
}

// N returns the number of vertices.
func (ids *VertexIDs) N() int32 { return ids.n }

// Original returns the input id of dense vertex v.
func (ids *VertexIDs) Original(v int32) int64 {
	if ids.original == nil || v < 0 || v >= ids.n {
		return int64(v)
	}
	return ids.original[v]
}

// Dense returns the dense id of the vertex whose input id is o, and false
// when no vertex has that id. O(log n).
func (ids *VertexIDs) Dense(o int64) (int32, bool) {
	switch {
	case ids.original == nil:
		return int32(o), o >= 0 && o < int64(ids.n)
	case ids.increasing:
		v := sort.Search(len(ids.original), func(i int) bool { return ids.original[i] >= o })
		return int32(v), v < len(ids.original) && ids.original[v] == o
	default:
		v, ok := ids.index[o]
		return v, ok
	}
}

// Describe names dense vertex v for messages, with its input id: users
// know their vertices by the ids of their files.
func (ids *VertexIDs) Describe(v int32) string {
	return fmt.Sprintf("vertex %d (dense id %d)", ids.Original(v), v)
}
