package results

import (
	"slices"
	"testing"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
)

// A matrix view answers for the sources of its panel, in place, and the
// view of a paths.Matrix reads the same cells.
func TestMatrixViewOfAPanel(t *testing.T) {
	// Rows of sources 1 and 2 over 3 vertices: 1 -> 2 (5), 2 -> 0 (1).
	panel := &Rows{First: 1, Sources: []int32{1, 2}, Width: 3,
		Dist64: []int64{6, 0, 5, 1, paths.Unreachable, 0},
		Parent: []int32{2, -1, 1, 2, -1, -1}}
	m, err := NewMatrix(panel)
	if err != nil {
		t.Fatal(err)
	}
	if !m.Has(1) || !m.Has(2) || m.Has(0) || m.Has(3) {
		t.Error("Has disagrees with the panel's sources")
	}
	if m.Weight(1, 0) != 6 || m.Weight(2, 1) != paths.Unreachable {
		t.Errorf("Weight(1, 0) = %d, Weight(2, 1) = %d", m.Weight(1, 0), m.Weight(2, 1))
	}
	if got := m.Between(1, 0); !slices.Equal(got, []int32{1, 2, 0}) {
		t.Errorf("Between(1, 0) = %v", got)
	}
	if _, err := NewMatrix(&Rows{Sources: []int32{1, 3}, Width: 3}); err == nil {
		t.Error("a block of sources 1 and 3 made a matrix")
	}

	whole := &paths.Matrix{N: 2, Dist32: []int32{0, 4, graph.Inf32, 0}, Parent: []int32{-1, 0, -1, -1}}
	v := MatrixOf(whole)
	if v.Weight(0, 1) != 4 || v.Weight(1, 0) != paths.Unreachable || !slices.Equal(v.Between(0, 1), []int32{0, 1}) {
		t.Errorf("view of a paths.Matrix: %d %d %v", v.Weight(0, 1), v.Weight(1, 0), v.Between(0, 1))
	}
}
