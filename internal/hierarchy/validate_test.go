package hierarchy

import (
	"slices"
	"testing"

	"github.com/pathflow/pathflow/internal/generate"
	"github.com/pathflow/pathflow/internal/graph"
)

// TestAssembleRefusesBrokenHierarchies checks that Assemble gives back a
// built hierarchy's arrays as an equal hierarchy and refuses each kind of
// damage Validate looks for.
func TestAssembleRefusesBrokenHierarchies(t *testing.T) {
	e, _, err := generate.Road(12, 3)
	if err != nil {
		t.Fatal(err)
	}
	h := build(t, graph.BuildCSR(e))
	again, err := Assemble(h.Rank, h.Up, h.UpMiddle, h.Down, h.DownMiddle, h.Rounds, "sum", 3)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(again.Order, h.Order) || again.GraphChecksum != "sum" {
		t.Fatal("Assemble does not give the order back")
	}
	damages := map[string]func(rank, upT, upW, upM []int32){
		"a repeated rank":   func(rank, _, _, _ []int32) { rank[1] = rank[0] },
		"an arc going down": func(_, upT, _, _ []int32) { upT[0] = 0 },
		"a negative weight": func(_, _, upW, _ []int32) { upW[3] = -1 },
		"a middle above":    func(_, _, _, upM []int32) { upM[len(upM)-1] = h.N - 1 },
	}
	for name, damage := range damages {
		rank, up, upM := slices.Clone(h.Rank), h.Up, slices.Clone(h.UpMiddle)
		up.Targets, up.Weights = slices.Clone(up.Targets), slices.Clone(up.Weights)
		damage(rank, up.Targets, up.Weights, upM)
		if _, err := Assemble(rank, up, upM, h.Down, h.DownMiddle, h.Rounds, "", 2); err == nil {
			t.Errorf("%s: no error", name)
		} else {
			t.Logf("%s: %v", name, err)
		}
	}
}
