package results

import (
	"slices"
	"testing"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
)

// A row of a block answers as the tree it holds: distances widened,
// unreachable documented, the path walked from the row's parents, and the
// same answers as its copy, which *paths.Tree gives through SingleSource.
func TestTreeViewReadsTheRowInPlace(t *testing.T) {
	// Rows of sources 2 and 0 over 0 -> 1 (3), 1 -> 2 (4); vertex 3 is
	// unreachable from both.
	r := &Rows{Sources: []int32{2, 0}, Width: 4,
		Dist32: []int32{graph.Inf32, graph.Inf32, 0, graph.Inf32, 0, 3, 7, graph.Inf32},
		Parent: []int32{-1, -1, -1, -1, -1, 0, 1, -1}}
	tree := r.Tree(1)
	if tree.From() != 0 || tree.WeightTo(2) != 7 || tree.WeightTo(3) != paths.Unreachable || tree.Reachable(3) {
		t.Errorf("row 1: from %d, to 2 %d, to 3 %d", tree.From(), tree.WeightTo(2), tree.WeightTo(3))
	}
	if got := tree.To(2); !slices.Equal(got, []int32{0, 1, 2}) {
		t.Errorf("To(2) = %v, want [0 1 2]", got)
	}
	if tree.To(3) != nil || !slices.Equal(r.Tree(0).To(2), []int32{2}) {
		t.Error("a path to an unreachable vertex, or none from a source to itself")
	}
	for _, s := range []SingleSource{tree, tree.Copy()} {
		for v := range int32(4) {
			if s.WeightTo(v) != tree.WeightTo(v) || !slices.Equal(s.To(v), tree.To(v)) {
				t.Errorf("%T disagrees with the view at %d", s, v)
			}
		}
	}
	r.Parent = nil
	if r.Tree(1).To(2) != nil {
		t.Error("a path from a block without parents")
	}
}
