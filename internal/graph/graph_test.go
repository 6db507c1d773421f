package graph

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestBuildCSRGroupsArcsBySourceStably(t *testing.T) {
	e := &EdgeList{N: 4, Src: []int32{2, 0, 2, 1, 0}, Dst: []int32{3, 1, 0, 2, 3}, Weight: []int32{5, 1, 7, 2, 9}}
	c := BuildCSR(e)
	if !slices.Equal(c.Offsets, []int64{0, 2, 3, 5, 5}) {
		t.Fatalf("offsets %v", c.Offsets)
	}
	if !slices.Equal(c.Targets, []int32{1, 3, 2, 3, 0}) || !slices.Equal(c.Weights, []int32{1, 9, 2, 5, 7}) {
		t.Errorf("targets %v weights %v", c.Targets, c.Weights)
	}
	r := BuildReverseCSR(e)
	if r.Degree(3) != 2 || r.Degree(0) != 1 || r.M() != 5 {
		t.Errorf("reverse degrees: in(3)=%d in(0)=%d m=%d", r.Degree(3), r.Degree(0), r.M())
	}
}

// randomEdgeList draws, from a fresh logged seed and the given PCG stream,
// a graph of 1..maxN vertices and fewer than maxArcs arcs (self-loops and
// parallel arcs included) with weights in [minWeight, minWeight+99].
func randomEdgeList(t *testing.T, stream uint64, maxN, maxArcs int, minWeight int32) *EdgeList {
	t.Helper()
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, stream))
	n := int32(1 + rng.IntN(maxN))
	e := NewEdgeList(n, 0)
	for range rng.IntN(maxArcs) {
		e.Add(rng.Int32N(n), rng.Int32N(n), rng.Int32N(100)+minWeight)
	}
	return e
}

func TestBuildCSRKeepsEveryArcOnRandomGraphs(t *testing.T) {
	e := randomEdgeList(t, 1, 50, 300, -50)
	n := e.N
	c := BuildCSR(e)
	type arc struct{ u, v, w int32 }
	var fromEdges, fromCSR []arc
	for i := range e.Src {
		fromEdges = append(fromEdges, arc{e.Src[i], e.Dst[i], e.Weight[i]})
	}
	for u := int32(0); u < n; u++ {
		for i := c.Offsets[u]; i < c.Offsets[u+1]; i++ {
			fromCSR = append(fromCSR, arc{u, c.Targets[i], c.Weights[i]})
		}
	}
	cmp := func(a, b arc) int {
		if a.u != b.u {
			return int(a.u - b.u)
		}
		if a.v != b.v {
			return int(a.v - b.v)
		}
		return int(a.w - b.w)
	}
	slices.SortFunc(fromEdges, cmp)
	slices.SortFunc(fromCSR, cmp)
	if !slices.Equal(fromEdges, fromCSR) {
		t.Error("the CSR does not hold the same arcs as the edge list")
	}
}

func TestValidate(t *testing.T) {
	good := &EdgeList{N: 2, Src: []int32{0}, Dst: []int32{1}, Weight: []int32{3}}
	if err := good.Validate(); err != nil {
		t.Error(err)
	}
	for _, bad := range []*EdgeList{
		{N: -1},
		{N: 2, Src: []int32{0}, Dst: []int32{2}, Weight: []int32{1}},
		{N: 2, Src: []int32{-1}, Dst: []int32{0}, Weight: []int32{1}},
		{N: 2, Src: []int32{0}, Dst: []int32{1}},
	} {
		if bad.Validate() == nil {
			t.Errorf("%+v passed validation", bad)
		}
	}
}

func TestDistanceBound(t *testing.T) {
	for _, tc := range []struct {
		n      int64
		lo, hi int32
		want   int64
	}{
		{1, -5, 5, 0},
		{10, 1, 100, 900},
		{10, -300, 100, 2700},
		{1 << 40, math.MinInt32, math.MaxInt32, math.MaxInt64}, // saturates
	} {
		if got := DistanceBound(tc.n, tc.lo, tc.hi); got != tc.want {
			t.Errorf("DistanceBound(%d, %d, %d) = %d, want %d", tc.n, tc.lo, tc.hi, got, tc.want)
		}
	}
	if !FitsInt32Distances(1001, 1, 1_000_000) || FitsInt32Distances(1075, 1, 1_000_000) {
		t.Error("FitsInt32Distances disagrees with (n-1) * max|w| < 2^30 - 1")
	}
	if lo, hi := (&EdgeList{Weight: []int32{4, -2, 9}}).WeightRange(); lo != -2 || hi != 9 {
		t.Errorf("WeightRange = %d, %d", lo, hi)
	}
}

func TestReverseListsEveryArcOnceBySource(t *testing.T) {
	e := randomEdgeList(t, 2, 40, 200, -20)
	n := e.N
	rev := BuildCSR(e).Reverse()
	want := BuildReverseCSR(e)
	if !slices.Equal(rev.Offsets, want.Offsets) {
		t.Fatalf("offsets %v, want %v", rev.Offsets, want.Offsets)
	}
	// Same arcs per row; within a row, sources ascend.
	for v := range n {
		got, exp := rowArcs(rev, v), rowArcs(want, v)
		slices.SortStableFunc(exp, func(a, b [2]int32) int { return int(a[0] - b[0]) })
		if !slices.Equal(got, exp) {
			t.Fatalf("row %d: %v, want %v", v, got, exp)
		}
	}
}

func rowArcs(g *CSR, v int32) [][2]int32 {
	var arcs [][2]int32
	for i := g.Offsets[v]; i < g.Offsets[v+1]; i++ {
		arcs = append(arcs, [2]int32{g.Targets[i], g.Weights[i]})
	}
	return arcs
}

// TestWeightRangeOnEveryCore checks the parallel scans (range and mean)
// against sequential ones, with the extremes at the ends and in the middle.
func TestWeightRangeOnEveryCore(t *testing.T) {
	for _, m := range []int{1, parallelMinWeights - 1, parallelMinWeights, 3*parallelMinWeights + 7} {
		for _, at := range []int{0, m / 2, m - 1} {
			ws := make([]int32, m)
			for i := range ws {
				ws[i] = int32(i % 1000)
			}
			ws[at], ws[m-1-at] = -5, 1<<30
			if m == 1 {
				ws[0] = -5
			}
			lo, hi := (&EdgeList{Weight: ws}).WeightRange()
			wlo, whi := rangeOf(ws)
			if lo != wlo || hi != whi {
				t.Fatalf("m %d: range [%d, %d], want [%d, %d]", m, lo, hi, wlo, whi)
			}
			var sum int64
			for _, w := range ws {
				sum += int64(w)
			}
			if mean, want := (&CSR{Weights: ws}).MeanWeight(), float64(sum)/float64(m); mean != want {
				t.Fatalf("m %d: mean %v, want %v", m, mean, want)
			}
		}
	}
}
