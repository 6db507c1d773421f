package paths

// Matrix is an all-pairs result stored row-major: row s holds the distances
// from source s. Distances are kept as int32 (Dist32, with graph.Inf32 for
// "no path") when they provably fit, which halves the memory of large
// results, and as int64 (Dist64, with Unreachable) otherwise. Exactly one of
// the two is non-nil.
type Matrix struct {
	// N is the number of vertices; the matrix is N x N.
	N int32
	// Dist32 and Dist64: see Matrix.
	Dist32 []int32
	Dist64 []int64
	// Parent[s*N+v] is the vertex before v on a shortest path from s, or
	// NoParent. Nil when the algorithm ran without predecessors.
	Parent []int32
}

// Distance returns the shortest distance from s to t, or Unreachable.
func (m *Matrix) Distance(s, t int32) int64 {
	i := int64(s)*int64(m.N) + int64(t)
	if m.Dist32 != nil {
		return Widen(m.Dist32[i])
	}
	return m.Dist64[i]
}

// Row copies row s into a Tree. The tree shares no memory with the matrix.
func (m *Matrix) Row(s int32) *Tree {
	t := &Tree{Source: s, Dist: make([]int64, m.N)}
	for v := int32(0); v < m.N; v++ {
		t.Dist[v] = m.Distance(s, v)
	}
	if m.Parent != nil {
		start := int64(s) * int64(m.N)
		t.Parent = append([]int32(nil), m.Parent[start:start+int64(m.N)]...)
	}
	return t
}
