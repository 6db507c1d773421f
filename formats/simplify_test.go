package formats

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/graph/graphtest"
)

// referenceReduce computes Reduce with a map: minimum weight per pair,
// non-negative self-loops dropped, sorted by source then target.
func referenceReduce(e *graph.EdgeList) (arcs [][3]int32, stats SimplifyStats) {
	best := map[[2]int32]int32{}
	count := map[[2]int32]int{}
	for i := range e.Src {
		k := [2]int32{e.Src[i], e.Dst[i]}
		if w, ok := best[k]; !ok || e.Weight[i] < w {
			best[k] = e.Weight[i]
		}
		count[k]++
	}
	for k, w := range best {
		switch {
		case k[0] != k[1]:
			arcs = append(arcs, [3]int32{k[0], k[1], w})
			stats.Parallel += count[k] - 1
		case w < 0:
			arcs = append(arcs, [3]int32{k[0], k[1], w})
			stats.SelfLoops += count[k] - 1
		default:
			stats.SelfLoops += count[k]
		}
	}
	slices.SortFunc(arcs, func(a, b [3]int32) int {
		return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1]))
	})
	return arcs, stats
}

func TestSimplifyReduce(t *testing.T) {
	for _, seed := range testSeeds(t) {
		rng := rand.New(rand.NewPCG(seed, 10))
		for _, n := range []int32{1, 2, 5, 50, 2000} {
			e := graphtest.RandomGraph(rng, n, rng.IntN(5000), -10, 10, 0)
			if n > 1 {
				e.Add(0, 1, math.MinInt32)
				e.Add(0, 1, math.MaxInt32)
			}
			before := slices.Clone(e.Src)
			got, stats, err := Simplify(e, Reduce)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(e.Src, before) {
				t.Fatal("Reduce changed its input")
			}
			want, wantStats := referenceReduce(e)
			if got.N != e.N || got.M() != len(want) || stats != wantStats {
				t.Fatalf("seed %d, n %d: %d arcs, stats %+v; want %d, %+v", seed, n, got.M(), stats, len(want), wantStats)
			}
			for i, a := range want {
				if g := [3]int32{got.Src[i], got.Dst[i], got.Weight[i]}; g != a {
					t.Fatalf("seed %d, n %d: arc %d is %v, want %v", seed, n, i, g, a)
				}
			}
		}
	}
}

func TestSimplifyKeepAll(t *testing.T) {
	e := &graph.EdgeList{N: 2, Src: []int32{1, 0, 0}, Dst: []int32{1, 1, 1}, Weight: []int32{3, 2, 2}}
	got, stats, err := Simplify(e, KeepAll)
	if err != nil || got != e || stats != (SimplifyStats{}) {
		t.Errorf("KeepAll: %v, %+v, %v", got, stats, err)
	}
}

func TestSimplifyErrors(t *testing.T) {
	bad := &graph.EdgeList{N: 1, Src: []int32{0}, Dst: []int32{1}, Weight: []int32{0}}
	if _, _, err := Simplify(bad, Reduce); err == nil {
		t.Error("an invalid graph was simplified")
	}
	if _, _, err := Simplify(&graph.EdgeList{}, Simplification(7)); err == nil {
		t.Error("an unknown mode was accepted")
	}
	for _, s := range []Simplification{KeepAll, Reduce} {
		if got, err := ParseSimplification(s.String()); err != nil || got != s {
			t.Errorf("ParseSimplification(%q) = %v, %v", s.String(), got, err)
		}
	}
	if _, err := ParseSimplification("drop"); err == nil {
		t.Error(`ParseSimplification accepted "drop"`)
	}
}
