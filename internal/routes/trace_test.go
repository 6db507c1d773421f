package routes

import (
	"slices"
	"testing"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/results"
)

// zeroLoop is a graph whose parent rule loops: 0 -> 3 (weight 1), then
// 3 -> 1, 1 -> 2, 2 -> 1 of weight zero, and 2 -> 4 (1). The smallest
// tight in-neighbour of 1 is 2 and of 2 is 1, so walking back from 4
// never reaches the source; the tree must be mended instead.
func zeroLoop() *graph.EdgeList {
	e := graph.NewEdgeList(5, 5)
	for _, a := range [][3]int32{{0, 3, 1}, {3, 1, 0}, {1, 2, 0}, {2, 1, 0}, {2, 4, 1}} {
		e.Src, e.Dst, e.Weight = append(e.Src, a[0]), append(e.Dst, a[1]), append(e.Weight, a[2])
	}
	return e
}

// TestPathMendsALoopOfZeroWeights checks that a walk back that loops over
// arcs of weight zero ends in the source all the same, on a path of tight
// arcs, and that the Tracer says it built the tree.
func TestPathMendsALoopOfZeroWeights(t *testing.T) {
	e := zeroLoop()
	ix, err := NewIndex(Network{Edges: e})
	if err != nil {
		t.Fatal(err)
	}
	tr := NewTracer(ix, graph.BuildCSR(e))
	rows := &results.Rows{Dist64: []int64{0, 1, 1, 1, 2}}
	got, cost, ok := tr.Path(nil, 0, 4, rows.Distances())
	if !ok || cost != 2 || !slices.Equal(got, []int32{0, 3, 1, 2, 4}) {
		t.Fatalf("path %v, cost %d, ok %v; want [0 3 1 2 4], 2", got, cost, ok)
	}
	if tr.TreesBuilt() != 1 {
		t.Errorf("%d trees built, want 1", tr.TreesBuilt())
	}
	if got, _, _ := tr.Path(nil, 0, 0, rows.Distances()); !slices.Equal(got, []int32{0}) {
		t.Errorf("the path from the source to itself is %v", got)
	}
}

// TestArcTakesTheLightestThenQuickest checks the arc a route takes
// between two vertices joined by parallel arcs.
func TestArcTakesTheLightestThenQuickest(t *testing.T) {
	e := graph.NewEdgeList(2, 4)
	e.Src, e.Dst, e.Weight = []int32{0, 0, 0, 0}, []int32{1, 1, 1, 1}, []int32{5, 3, 3, 3}
	ix, err := NewIndex(Network{Edges: e, TimeMS: []int32{1, 9, 7, 7}, LengthM: []int32{1, 1, 4, 2}})
	if err != nil {
		t.Fatal(err)
	}
	if a := ix.Arc(0, 1); a != 3 {
		t.Errorf("arc %d, want 3 (weight 3, time 7, length 2)", a)
	}
	if a := ix.Arc(1, 0); a != NoArc {
		t.Errorf("arc %d from 1 to 0, want none", a)
	}
}
