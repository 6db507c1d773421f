package graph_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/graph/graphtest"
)

// freshSeeds returns a fixed seed and one drawn from the clock, logged so a
// failure can be replayed.
func freshSeeds(t *testing.T) []uint64 {
	fresh := uint64(time.Now().UnixNano())
	t.Logf("seeds: 1 and %d", fresh)
	return []uint64{1, fresh}
}

// reachability returns reach[u*n+v]: whether v can be reached from u (every
// vertex reaches itself), by a breadth-first search from every vertex.
func reachability(e *graph.EdgeList) []bool {
	n := int(e.N)
	succ := make([][]int32, n)
	for i, u := range e.Src {
		succ[u] = append(succ[u], e.Dst[i])
	}
	reach := make([]bool, n*n)
	for s := range n {
		row := reach[s*n : (s+1)*n]
		row[s] = true
		queue := []int32{int32(s)}
		for len(queue) > 0 {
			u := queue[0]
			queue = queue[1:]
			for _, w := range succ[u] {
				if !row[w] {
					row[w] = true
					queue = append(queue, w)
				}
			}
		}
	}
	return reach
}

// checkLabelling reports the first way comp and sizes fail to be a
// labelling numbered by smallest vertex: a label out of range, a label
// first seen out of order, or a size that does not count its vertices.
func checkLabelling(n int32, comp, sizes []int32) error {
	if len(comp) != int(n) {
		return fmt.Errorf("%d labels for %d vertices", len(comp), n)
	}
	count := make([]int32, len(sizes))
	next := int32(0) // the label the next new component must carry
	for v, c := range comp {
		if c < 0 || int(c) >= len(sizes) {
			return fmt.Errorf("comp[%d] = %d outside 0..%d", v, c, len(sizes)-1)
		}
		if c > next {
			return fmt.Errorf("comp[%d] = %d before any vertex of component %d", v, c, next)
		}
		if c == next {
			next++
		}
		count[c]++
	}
	if int(next) != len(sizes) {
		return fmt.Errorf("%d components labelled, %d sizes", next, len(sizes))
	}
	if !slices.Equal(count, sizes) {
		return fmt.Errorf("sizes %v, counted %v", sizes, count)
	}
	return nil
}

func TestStrongComponentsMatchMutualReachability(t *testing.T) {
	for _, seed := range freshSeeds(t) {
		r := rand.New(rand.NewPCG(seed, 11))
		for trial := range 300 {
			n := 1 + r.Int32N(40)
			// From forests of dead ends to nearly complete graphs.
			density := []float64{0.3, 0.8, 1, 1.5, 3, float64(n) / 2}[trial%6]
			m := int(density * float64(n))
			e := graphtest.RandomGraph(r, n, m, 1, 9, 0)
			comp, sizes := graph.StrongComponents(graph.BuildCSR(e))
			if err := checkLabelling(n, comp, sizes); err != nil {
				t.Fatalf("seed %d trial %d (n %d, m %d): %v", seed, trial, n, m, err)
			}
			reach := reachability(e)
			for u := range n {
				for v := range n {
					mutual := reach[int(u)*int(n)+int(v)] && reach[int(v)*int(n)+int(u)]
					if same := comp[u] == comp[v]; same != mutual {
						t.Fatalf("seed %d trial %d (n %d, m %d): %d and %d in one component %v, reach each other %v",
							seed, trial, n, m, u, v, same, mutual)
					}
				}
			}
		}
	}
}

// The labels must not depend on the order of the arcs, which changes the
// order of the depth-first search.
func TestStrongComponentsLabelsIgnoreArcOrder(t *testing.T) {
	for _, seed := range freshSeeds(t) {
		r := rand.New(rand.NewPCG(seed, 12))
		for trial := range 50 {
			n := 1 + r.Int32N(200)
			e := graphtest.RandomGraph(r, n, int(n)+r.IntN(int(n)), 1, 9, 0)
			comp, sizes := graph.StrongComponents(graph.BuildCSR(e))
			again, againSizes := graph.StrongComponents(graph.BuildCSR(e))
			if !slices.Equal(comp, again) || !slices.Equal(sizes, againSizes) {
				t.Fatalf("seed %d trial %d: two runs on one graph differ", seed, trial)
			}
			shuffled := graph.NewEdgeList(n, e.M())
			for _, i := range r.Perm(e.M()) {
				shuffled.Add(e.Src[i], e.Dst[i], e.Weight[i])
			}
			comp2, sizes2 := graph.StrongComponents(graph.BuildCSR(shuffled))
			if !slices.Equal(comp, comp2) || !slices.Equal(sizes, sizes2) {
				t.Fatalf("seed %d trial %d: shuffling the arcs changed the labels", seed, trial)
			}
		}
	}
}

func TestStrongComponentsSmallCases(t *testing.T) {
	cases := []struct {
		name    string
		n       int32
		arcs    [][2]int32
		comp    []int32
		sizes   []int32
		largest int32
	}{
		{name: "empty", n: 0, comp: []int32{}, sizes: []int32{}, largest: -1},
		{name: "isolated", n: 3, comp: []int32{0, 1, 2}, sizes: []int32{1, 1, 1}, largest: 0},
		// A self-loop makes no vertex reach another.
		{name: "self-loops", n: 2, arcs: [][2]int32{{0, 0}, {1, 1}, {1, 1}}, comp: []int32{0, 1}, sizes: []int32{1, 1}, largest: 0},
		// The search starts at 0 and closes {2, 3} first; the labels still
		// follow the smallest vertex.
		{name: "two cycles", n: 5, arcs: [][2]int32{{0, 2}, {2, 3}, {3, 2}, {4, 0}, {0, 4}, {1, 1}},
			comp: []int32{0, 1, 2, 2, 0}, sizes: []int32{2, 1, 2}, largest: 0},
		{name: "largest last", n: 4, arcs: [][2]int32{{0, 1}, {1, 2}, {2, 3}, {3, 1}},
			comp: []int32{0, 1, 1, 1}, sizes: []int32{1, 3}, largest: 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := graph.NewEdgeList(c.n, len(c.arcs))
			for _, a := range c.arcs {
				e.Add(a[0], a[1], 1)
			}
			comp, sizes := graph.StrongComponents(graph.BuildCSR(e))
			if !slices.Equal(comp, c.comp) || !slices.Equal(sizes, c.sizes) {
				t.Fatalf("comp %v sizes %v, want %v and %v", comp, sizes, c.comp, c.sizes)
			}
			if got := graph.Largest(sizes); got != c.largest {
				t.Errorf("Largest = %d, want %d", got, c.largest)
			}
		})
	}
}

// A path and a cycle of a million vertices: the search must not recurse.
func TestStrongComponentsLongPathAndCycle(t *testing.T) {
	const n = 1_000_000
	path := graphtest.LineGraph(n, 1)
	comp, sizes := graph.StrongComponents(graph.BuildCSR(path))
	if len(sizes) != n {
		t.Fatalf("path: %d components, want %d", len(sizes), n)
	}
	for v, c := range comp {
		if c != int32(v) || sizes[c] != 1 {
			t.Fatalf("path: comp[%d] = %d of size %d, want its own of size 1", v, c, sizes[c])
		}
	}

	// The closing arc comes last, so the search walks the whole path
	// before it finds out everything is one component.
	path.Add(n-1, 0, 1)
	comp, sizes = graph.StrongComponents(graph.BuildCSR(path))
	if !slices.Equal(sizes, []int32{n}) {
		t.Fatalf("cycle: sizes %v, want [%d]", sizes[:min(len(sizes), 5)], n)
	}
	if i := slices.IndexFunc(comp, func(c int32) bool { return c != 0 }); i >= 0 {
		t.Fatalf("cycle: comp[%d] = %d", i, comp[i])
	}
}

func TestLargestPicksSmallestLabelOnTie(t *testing.T) {
	for _, c := range []struct {
		sizes []int32
		want  int32
	}{
		{nil, -1},
		{[]int32{4}, 0},
		{[]int32{1, 3, 2, 3}, 1},
		{[]int32{1, 2, 5}, 2},
	} {
		if got := graph.Largest(c.sizes); got != c.want {
			t.Errorf("Largest(%v) = %d, want %d", c.sizes, got, c.want)
		}
	}
}
