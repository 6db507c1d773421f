package graph_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/graph/graphtest"
)

// keptArc is one arc of the filtered graph, named by old ids.
type keptArc struct{ src, dst, weight int32 }

func TestKeepMatchesFilter(t *testing.T) {
	for _, seed := range freshSeeds(t) {
		r := rand.New(rand.NewPCG(seed, 13))
		for trial := range 200 {
			n := r.Int32N(60)
			e := graphtest.RandomGraph(r, n, int(n)*r.IntN(4), -5, 50, 0)
			keep := make([]bool, n)
			share := []float64{0, 0.3, 0.7, 1}[trial%4]
			for v := range keep {
				keep[v] = r.Float64() < share
			}

			// The filter, written out: kept vertices in order, and every
			// arc whose ends are kept, with its index.
			var wantOld []int32
			for v, k := range keep {
				if k {
					wantOld = append(wantOld, int32(v))
				}
			}
			var wantArcs []keptArc
			var wantIndex []int64
			for i := range e.Src {
				if keep[e.Src[i]] && keep[e.Dst[i]] {
					wantArcs = append(wantArcs, keptArc{e.Src[i], e.Dst[i], e.Weight[i]})
					wantIndex = append(wantIndex, int64(i))
				}
			}

			sub, old, arcIndex := graph.Keep(e, keep)
			if err := sub.Validate(); err != nil {
				t.Fatalf("seed %d trial %d: %v", seed, trial, err)
			}
			if int(sub.N) != len(wantOld) || !slices.Equal(old, wantOld) {
				t.Fatalf("seed %d trial %d: N %d old %v, want old %v", seed, trial, sub.N, old, wantOld)
			}
			gotArcs := make([]keptArc, sub.M())
			for i := range gotArcs {
				gotArcs[i] = keptArc{old[sub.Src[i]], old[sub.Dst[i]], sub.Weight[i]}
			}
			if !slices.Equal(gotArcs, wantArcs) {
				t.Fatalf("seed %d trial %d: arcs %v, want %v", seed, trial, gotArcs, wantArcs)
			}
			if !slices.Equal(arcIndex, wantIndex) {
				t.Fatalf("seed %d trial %d: arc indices %v, want %v", seed, trial, arcIndex, wantIndex)
			}
		}
	}
}

// Keeping the largest strongly connected component, as a road network
// loader does, leaves one strongly connected graph.
func TestKeepLargestComponentIsStronglyConnected(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 14))
	e := graphtest.RandomGraph(r, 500, 700, 1, 9, 0)
	comp, sizes := graph.StrongComponents(graph.BuildCSR(e))
	largest := graph.Largest(sizes)
	keep := make([]bool, e.N)
	for v, c := range comp {
		keep[v] = c == largest
	}
	sub, _, _ := graph.Keep(e, keep)
	if sub.N != sizes[largest] || sub.N < 2 {
		t.Fatalf("kept %d vertices, largest component has %d", sub.N, sizes[largest])
	}
	if _, subSizes := graph.StrongComponents(graph.BuildCSR(sub)); len(subSizes) != 1 {
		t.Errorf("the kept graph has %d components, want 1", len(subSizes))
	}
}

func TestKeepPanicsOnWrongFlagCount(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Keep accepted 2 flags for 3 vertices")
		}
	}()
	graph.Keep(graph.NewEdgeList(3, 0), make([]bool, 2))
}
