package results

import (
	"fmt"

	"github.com/pathflow/pathflow/internal/paths"
)

// Matrix is a view of an all-pairs result: a block of full rows whose
// sources are consecutive vertices (a panel of the matrix, or all of it),
// read in place. It is valid until the block is released.
type Matrix struct {
	rows  *Rows
	first int32
}

// NewMatrix returns a view of rows, which must hold full rows (not ragged)
// of consecutive sources. O(rows).
func NewMatrix(rows *Rows) (Matrix, error) {
	if rows.Offsets != nil {
		return Matrix{}, fmt.Errorf("results: a ragged block is no matrix")
	}
	for i := 1; i < rows.Len(); i++ {
		if rows.Sources[i] != rows.Sources[i-1]+1 {
			return Matrix{}, fmt.Errorf("results: block row %d is source %d after %d: no matrix panel", rows.First+i, rows.Sources[i], rows.Sources[i-1])
		}
	}
	m := Matrix{rows: rows}
	if rows.Len() > 0 {
		m.first = rows.Sources[0]
	}
	return m, nil
}

// MatrixOf returns a view of m, sharing its memory: rows 0..N-1. O(N) for
// the row's sources.
func MatrixOf(m *paths.Matrix) Matrix {
	sources := make([]int32, m.N)
	for i := range sources {
		sources[i] = int32(i)
	}
	rows := &Rows{Sources: sources, Width: int(m.N), Dist32: m.Dist32, Dist64: m.Dist64, Parent: m.Parent}
	return Matrix{rows: rows}
}

// Has reports whether u is a source of the view. O(1).
func (m Matrix) Has(u int32) bool { return u >= m.first && int(u-m.first) < m.rows.Len() }

// From returns the shortest-path tree from u, which must be a source of
// the view. O(1).
func (m Matrix) From(u int32) Tree { return m.rows.Tree(int(u - m.first)) }

// Weight returns the shortest distance from u to v, or paths.Unreachable;
// u must be a source of the view. O(1).
func (m Matrix) Weight(u, v int32) int64 { return m.From(u).WeightTo(v) }

// Between returns the vertices of a shortest path from u to v, both
// included, or nil when there is none or the view has no parents; u must
// be a source of the view. O(path length).
func (m Matrix) Between(u, v int32) []int32 { return m.From(u).To(v) }
