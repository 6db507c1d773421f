package paths

import (
	"slices"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/internal/graph"
)

// diamond: 0 -> 1 (1), 0 -> 2 (4), 1 -> 2 (2), 2 -> 3 (1); vertex 4 is
// unreachable.
func diamond() *graph.CSR {
	return graph.BuildCSR(&graph.EdgeList{N: 5,
		Src: []int32{0, 0, 1, 2}, Dst: []int32{1, 2, 2, 3}, Weight: []int32{1, 4, 2, 1}})
}

func goodTree() *Tree {
	return &Tree{Source: 0, Dist: []int64{0, 1, 3, 4, Unreachable}, Parent: []int32{NoParent, 0, 1, 2, NoParent}}
}

func TestCheckTreeAcceptsAShortestPathTree(t *testing.T) {
	if err := CheckTree(diamond(), goodTree()); err != nil {
		t.Fatal(err)
	}
	if got := goodTree().To(3); !slices.Equal(got, []int32{0, 1, 2, 3}) {
		t.Errorf("To(3) = %v", got)
	}
	if goodTree().To(4) != nil || goodTree().ReachableCount() != 4 {
		t.Error("unreachable vertex 4 has a path or is counted")
	}
}

func TestCheckTreeRejectsEachKindOfError(t *testing.T) {
	for _, tc := range []struct {
		name   string
		mutate func(*Tree)
		want   string
	}{
		{"source distance", func(t *Tree) { t.Dist[0] = 1 }, "source"},
		{"too long", func(t *Tree) { t.Dist[2] = 4; t.Dist[3] = 5; t.Parent[2] = 0 }, "still relaxes"},
		{"too short", func(t *Tree) { t.Dist[3] = 2 }, "no arc"},
		{"missed vertex", func(t *Tree) { t.Dist[3] = Unreachable; t.Parent[3] = NoParent }, "still relaxes"},
		{"wrong parent", func(t *Tree) { t.Parent[3] = 1 }, "no arc"},
		{"parent of source", func(t *Tree) { t.Parent[0] = 2 }, "source or unreachable"},
		{"parent out of range", func(t *Tree) { t.Parent[2] = 9 }, "parent 9"},
	} {
		tree := goodTree()
		tc.mutate(tree)
		err := CheckTree(diamond(), tree)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want it to mention %q", tc.name, err, tc.want)
		}
	}
}

// TestCheckParentsAcceptsACutShortTree checks that CheckParents, unlike
// CheckTree, accepts a row whose far vertices a cutoff left unreachable,
// and still rejects a parent that is no tight arc.
func TestCheckParentsAcceptsACutShortTree(t *testing.T) {
	cut := goodTree()
	cut.Dist[3], cut.Parent[3] = Unreachable, NoParent
	if err := CheckParents(diamond(), cut); err != nil {
		t.Errorf("cut-short tree: %v", err)
	}
	if err := CheckTree(diamond(), cut); err == nil {
		t.Error("CheckTree accepted a tree missing vertex 3")
	}
	cut.Parent[2] = 0
	if err := CheckParents(diamond(), cut); err == nil || !strings.Contains(err.Error(), "no arc") {
		t.Errorf("parent 0 of 2 at distance 3: err = %v, want it to mention %q", err, "no arc")
	}
}

func TestMatrixRowsAndInfinity(t *testing.T) {
	m := &Matrix{N: 2, Dist32: []int32{0, 5, graph.Inf32, 0}, Parent: []int32{NoParent, 0, NoParent, NoParent}}
	if m.Distance(0, 1) != 5 || m.Distance(1, 0) != Unreachable {
		t.Errorf("distances %d %d", m.Distance(0, 1), m.Distance(1, 0))
	}
	row := m.Row(1)
	if row.Source != 1 || row.Dist[0] != Unreachable || row.Dist[1] != 0 || row.Parent[1] != NoParent {
		t.Errorf("row 1 = %+v", row)
	}
	row.Parent[0] = 7
	if m.Parent[2] == 7 {
		t.Error("Row shares memory with the matrix")
	}
	wide := &Matrix{N: 1, Dist64: []int64{0}}
	if wide.Distance(0, 0) != 0 || wide.Row(0).Parent != nil {
		t.Error("int64 matrix without parents")
	}
}

// zeroLoop: 0 -> 1 (1), 1 <-> 2 (0 both ways), 2 -> 3 (2), 4 -> 0 (1):
// 1 and 2 are each other's tight in-neighbours.
func zeroLoop() *graph.CSR {
	return graph.BuildCSR(&graph.EdgeList{N: 5,
		Src: []int32{0, 1, 2, 2, 4}, Dst: []int32{1, 2, 1, 3, 0}, Weight: []int32{1, 0, 0, 2, 1}})
}

func TestRepairMendsZeroWeightLoops(t *testing.T) {
	r := NewTreeRepair(5)
	dist := []int32{0, 1, 1, 3, graph.Inf32}
	parent := []int32{NoParent, 2, 1, 2, NoParent}
	if v := r.ParentCycle(parent); v != 1 && v != 2 {
		t.Fatalf("ParentCycle = %d, want 1 or 2", v)
	}
	if !Repair(r, zeroLoop(), 0, dist, graph.Inf32, parent) {
		t.Fatal("looping row not rebuilt")
	}
	if want := []int32{NoParent, 0, 1, 2, NoParent}; !slices.Equal(parent, want) {
		t.Fatalf("parents %v, want %v", parent, want)
	}
	if Repair(r, zeroLoop(), 0, dist, graph.Inf32, parent) {
		t.Fatal("a tree rebuilt")
	}
	tree := &Tree{Source: 0, Dist: []int64{0, 1, 1, 3, Unreachable}, Parent: parent}
	if err := CheckTree(zeroLoop(), tree); err != nil {
		t.Fatal(err)
	}
}

func TestRepairWithInt64Distances(t *testing.T) {
	r := NewTreeRepair(5)
	inf := int64(1) << 62
	parent := []int32{NoParent, 2, 1, 2, NoParent}
	if !Repair(r, zeroLoop(), 0, []int64{0, 1, 1, 3, inf}, inf, parent) {
		t.Fatal("looping row not rebuilt")
	}
	if want := []int32{NoParent, 0, 1, 2, NoParent}; !slices.Equal(parent, want) {
		t.Fatalf("parents %v, want %v", parent, want)
	}
}

func TestWiden(t *testing.T) {
	for d, want := range map[int32]int64{0: 0, -7: -7, graph.Inf32 - 1: int64(graph.Inf32) - 1, graph.Inf32: Unreachable} {
		if got := Widen(d); got != want {
			t.Errorf("Widen(%d) = %d, want %d", d, got, want)
		}
	}
}
