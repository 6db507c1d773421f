package hierarchy

import (
	"math/rand/v2"
	"testing"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/graph/graphtest"
)

// TestSelectionSweepEqualsTable checks that a sweep restricted to the
// selection of some columns gives them the bucket table's distances, for
// batches of up to TreeLanes sources, plain and on metric keys, and says
// -1 for a vertex outside the selection.
func TestSelectionSweepEqualsTable(t *testing.T) {
	r := rand.New(rand.NewPCG(freshSeed(t), 11))
	e := graphtest.WithMetric(r, graphtest.RandomGraph(r, 400, 1600, 0, 9, 0), 0, 20)
	h := build(t, graph.BuildCSR(e))
	keyed, err := h.WithMetricKeys()
	if err != nil {
		t.Fatal(err)
	}
	columns := []int32{3, 17, 250, 399, 0, 42}
	sources := make([]int32, 21)
	for i := range sources {
		sources[i] = r.Int32N(400)
	}
	for name, hh := range map[string]*Hierarchy{"plain": h, "keys": keyed} {
		want, err := hh.Table(sources, columns, 1)
		if err != nil {
			t.Fatal(err)
		}
		sel, err := hh.Select(columns)
		if err != nil {
			t.Fatal(err)
		}
		sweep := hh.NewSelectionSweep(sel)
		for lo := 0; lo < len(sources); lo += TreeLanes {
			batch := sources[lo:min(len(sources), lo+TreeLanes)]
			if err := sweep.Run(batch); err != nil {
				t.Fatal(err)
			}
			for i := range batch {
				for j, c := range columns {
					if got := sweep.Distance(i, c); got != want[(lo+i)*len(columns)+j] {
						t.Fatalf("%s: source %d to %d: %d, the table says %d", name, batch[i], c, got, want[(lo+i)*len(columns)+j])
					}
				}
			}
		}
		if len(sel.Vertices) < int(h.N) {
			for v := range h.N {
				if sel.Position(h.Rank[v]) < 0 {
					if d := sweep.Distance(0, v); d != -1 {
						t.Fatalf("%s: vertex %d outside the selection: %d", name, v, d)
					}
					break
				}
			}
		}
	}
}
