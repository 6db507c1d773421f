package graph

// Vertices is the per-vertex metadata an input carries beside its arcs.
type Vertices struct {
	// OriginalID[v] is the id vertex v had in the input file (1-based DIMACS
	// ids, arbitrary SNAP ids). Nil means the identity v.
	OriginalID []int64
	// X and Y are integer coordinates (DIMACS .co: longitude and latitude
	// times 10^6). Both nil when unknown.
	X, Y []int32
}

// Original returns the input id of vertex v.
func (vs *Vertices) Original(v int32) int64 {
	if vs == nil || vs.OriginalID == nil {
		return int64(v)
	}
	return vs.OriginalID[v]
}

// HasCoordinates reports whether X and Y are known.
func (vs *Vertices) HasCoordinates() bool { return vs != nil && vs.X != nil && vs.Y != nil }
