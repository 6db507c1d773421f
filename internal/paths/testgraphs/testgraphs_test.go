package testgraphs

import (
	"slices"
	"testing"

	"github.com/pathflow/pathflow/internal/paths"
)

func TestTableIsWellFormed(t *testing.T) {
	for _, g := range Graphs {
		if err := g.EdgeList().Validate(); err != nil {
			t.Errorf("%s: %v", g.Name, err)
		}
		if (g.UnreachableCycle || g.NegativeCycle) && !g.Negative() {
			t.Errorf("%s: a negative cycle needs a negative arc", g.Name)
		}
		if g.NegativeCycle {
			if g.Want != nil || g.UnreachableCycle {
				t.Errorf("%s: a negative cycle every source reaches has no answers", g.Name)
			}
			continue
		}
		if len(g.Want) != len(g.Sources) || len(g.Parents) != len(g.Sources) {
			t.Errorf("%s: %d sources, %d answers, %d parent sets", g.Name, len(g.Sources), len(g.Want), len(g.Parents))
			continue
		}
		for i := range g.Sources {
			if len(g.Want[i]) != int(g.N) || len(g.Parents[i]) != int(g.N) {
				t.Errorf("%s: answer %d does not cover %d vertices", g.Name, i, g.N)
			}
		}
	}
}

// TestAnswersAreShortestPathTrees checks the hand-written answers
// themselves: a tree of the first valid parents must pass paths.CheckTree.
func TestAnswersAreShortestPathTrees(t *testing.T) {
	for _, g := range Graphs {
		for i := range g.Want {
			tree := &paths.Tree{Source: g.Sources[i], Dist: g.Want[i], Parent: make([]int32, g.N)}
			for v, valid := range g.Parents[i] {
				tree.Parent[v] = paths.NoParent
				if len(valid) > 0 {
					tree.Parent[v] = valid[0]
				}
			}
			if err := paths.CheckTree(g.CSR(), tree); err != nil {
				t.Errorf("%s from %d: %v", g.Name, g.Sources[i], err)
			}
			if err := g.Check(i, tree.Dist, tree.Parent); err != nil {
				t.Error(err)
			}
		}
	}
}

func TestCheckRejectsWrongAnswers(t *testing.T) {
	i := slices.IndexFunc(Graphs, func(g Graph) bool { return g.Name == "zero-weight cycle" })
	g := Graphs[i]
	dist := slices.Clone(g.Want[0])
	if err := g.Check(0, dist, []int32{paths.NoParent, 2, 1, 2}); err == nil {
		t.Error("parents looping 1 <-> 2 accepted")
	}
	if err := g.Check(0, dist, []int32{paths.NoParent, 0, 0, 2}); err == nil {
		t.Error("parent 0 of 2 accepted")
	}
	dist[3]++
	if err := g.Check(0, dist, nil); err == nil {
		t.Error("wrong distance accepted")
	}
}
