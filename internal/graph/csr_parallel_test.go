package graph

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
)

// sortTestGraph is one input shape for the parallel sort tests.
type sortTestGraph struct {
	name string
	e    *EdgeList
}

// sortTestGraphs returns edge lists that stress the counting sort: empty
// graphs, vertices without arcs, self-loops, parallel arcs, a hub holding
// most arcs, and input already sorted by source. Every arc has its own
// weight, so any arc out of its input order within a row shows.
func sortTestGraphs(rng *rand.Rand) []sortTestGraph {
	build := func(n int32, m int, arc func(i int) (u, v int32)) *EdgeList {
		e := NewEdgeList(n, m)
		for i := range m {
			u, v := arc(i)
			e.Add(u, v, int32(i)*3-500)
		}
		return e
	}
	uniform := func(n int32) func(int) (int32, int32) {
		return func(int) (int32, int32) { return rng.Int32N(n), rng.Int32N(n) }
	}
	n := int32(2000 + rng.IntN(3000))
	sorted := build(n, 20_000, uniform(n))
	slices.Sort(sorted.Src)
	return []sortTestGraph{
		{"empty", &EdgeList{}},
		{"no arcs", build(17, 0, nil)},
		{"one arc", build(5, 1, func(int) (int32, int32) { return 3, 1 })},
		{"self-loops and parallel arcs", build(3, 500, uniform(3))},
		{"single vertex", build(1, 40, uniform(1))},
		{"uniform", build(n, 30_000, uniform(n))},
		{"even vertices only", build(n, 10_000, func(int) (int32, int32) {
			return 2 * rng.Int32N(n/2), 2 * rng.Int32N(n/2)
		})},
		{"hub", build(n, 20_000, func(i int) (int32, int32) {
			if i%5 == 0 {
				return rng.Int32N(n), rng.Int32N(n)
			}
			return n / 2, n / 2
		})},
		{"sorted by source", sorted},
		{"more vertices than arcs", build(100_000, 3_000, uniform(100_000))},
	}
}

func equalCSR(a, b *CSR) bool {
	return a.N == b.N && slices.Equal(a.Offsets, b.Offsets) &&
		slices.Equal(a.Targets, b.Targets) && slices.Equal(a.Weights, b.Weights)
}

// TestParallelSortMatchesSequential checks that the parallel counting sort
// gives the sequential result byte for byte, for BuildCSR, BuildReverseCSR
// and Reverse inputs, whatever the number of workers and the vertex range
// size (both passed explicitly, so the chunking does not depend on the
// machine).
func TestParallelSortMatchesSequential(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 3))
	for _, g := range sortTestGraphs(rng) {
		e := g.e
		forward := buildCSR(e.N, e.Src, e.Dst, e.Weight)
		inputs := []struct {
			name string
			a    arcSet
			want *CSR
		}{
			{"forward", arcSet{key: e.Src, to: e.Dst, weight: e.Weight}, forward},
			{"reverse of edges", arcSet{key: e.Dst, to: e.Src, weight: e.Weight}, buildCSR(e.N, e.Dst, e.Src, e.Weight)},
			{"reverse of CSR", arcSet{key: forward.Targets, weight: forward.Weights, rows: forward.Offsets},
				buildCSR(e.N, forward.Targets, rowOfEachArc(forward.Offsets, forward.M()), forward.Weights)},
		}
		for _, in := range inputs {
			for _, workers := range []int{1, 2, 3, 4, 7, 16} {
				for _, shift := range []uint{0, 1, 3, bucketShift(e.N)} {
					got := buildCSRParallel(e.N, in.a, workers, shift)
					if !equalCSR(got, in.want) {
						t.Fatalf("%s, %s, %d workers, ranges of 2^%d vertices: differs from the sequential sort",
							g.name, in.name, workers, shift)
					}
				}
			}
		}
	}
}

// TestPublicBuildsMatchSequential checks the exported functions on a graph
// large enough for the parallel path, at several GOMAXPROCS values.
func TestPublicBuildsMatchSequential(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 4))
	n := int32(50_000)
	e := NewEdgeList(n, parallelMinArcs+1000)
	for range parallelMinArcs + 1000 {
		e.Add(rng.Int32N(n), rng.Int32N(n), rng.Int32N(1<<20))
	}
	forward := buildCSR(n, e.Src, e.Dst, e.Weight)
	reverse := buildCSR(n, e.Dst, e.Src, e.Weight)
	csrReverse := buildCSR(n, forward.Targets, rowOfEachArc(forward.Offsets, forward.M()), forward.Weights)
	for _, procs := range []int{1, 2, 5} {
		t.Run(fmt.Sprintf("GOMAXPROCS=%d", procs), func(t *testing.T) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			if !equalCSR(BuildCSR(e), forward) {
				t.Error("BuildCSR differs from the sequential sort")
			}
			if !equalCSR(BuildReverseCSR(e), reverse) {
				t.Error("BuildReverseCSR differs from the sequential sort")
			}
			if !equalCSR(forward.Reverse(), csrReverse) {
				t.Error("Reverse differs from the sequential sort")
			}
		})
	}
}

func TestReverseOfEmptyCSR(t *testing.T) {
	for _, c := range []*CSR{{}, {N: 3, Offsets: make([]int64, 4)}} {
		r := c.Reverse()
		if r.N != c.N || r.M() != 0 || len(r.Offsets) != int(c.N)+1 {
			t.Errorf("Reverse of %+v = %+v", c, r)
		}
	}
}
