package generate

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/pathflow/pathflow/internal/graph"
)

// freshSeed returns a new seed for this run and logs it so a failure can
// be replayed.
func freshSeed(t *testing.T) uint64 {
	t.Helper()
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	return seed
}

// seeds returns a fixed seed, for a reproducible baseline, and a fresh one.
func seeds(t *testing.T) []uint64 { return []uint64{1, freshSeed(t)} }

func checkWeightRange(t *testing.T, e *graph.EdgeList, lo, hi int32) {
	t.Helper()
	for i, w := range e.Weight {
		if w < lo || w > hi {
			t.Fatalf("arc %d has weight %d outside [%d, %d]", i, w, lo, hi)
		}
	}
}

func equalEdgeLists(a, b *graph.EdgeList) bool {
	return a.N == b.N && slices.Equal(a.Src, b.Src) && slices.Equal(a.Dst, b.Dst) && slices.Equal(a.Weight, b.Weight)
}

// reachesAll reports whether a breadth-first search from vertex 0 over g
// visits every vertex.
func reachesAll(g *graph.CSR) bool {
	if g.N == 0 {
		return true
	}
	seen := make([]bool, g.N)
	seen[0] = true
	queue := []int32{0}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for i := g.Offsets[u]; i < g.Offsets[u+1]; i++ {
			if v := g.Targets[i]; !seen[v] {
				seen[v] = true
				queue = append(queue, v)
			}
		}
	}
	return !slices.Contains(seen, false)
}

func TestArgumentErrors(t *testing.T) {
	cases := []struct {
		name string
		call func() (*graph.EdgeList, error)
	}{
		{"er negative n", func() (*graph.EdgeList, error) { return ErdosRenyi(-1, 0.5, 1, 2, 1) }},
		{"er p below 0", func() (*graph.EdgeList, error) { return ErdosRenyi(10, -0.1, 1, 2, 1) }},
		{"er p above 1", func() (*graph.EdgeList, error) { return ErdosRenyi(10, 1.5, 1, 2, 1) }},
		{"er p NaN", func() (*graph.EdgeList, error) { return ErdosRenyi(10, math.NaN(), 1, 2, 1) }},
		{"er lo above hi", func() (*graph.EdgeList, error) { return ErdosRenyi(10, 0.5, 3, 2, 1) }},
		{"degree negative n", func() (*graph.EdgeList, error) { return RandomDegree(-5, 3, 1, 2, 1) }},
		{"degree k 0", func() (*graph.EdgeList, error) { return RandomDegree(10, 0, 1, 2, 1) }},
		{"degree lo above hi", func() (*graph.EdgeList, error) { return RandomDegree(10, 3, 5, 2, 1) }},
		{"degree single vertex", func() (*graph.EdgeList, error) { return RandomDegree(1, 3, 1, 2, 1) }},
		{"grid negative side", func() (*graph.EdgeList, error) { return Grid(-1, 1, 2, 1) }},
		{"grid too large", func() (*graph.EdgeList, error) { return Grid(50000, 1, 2, 1) }},
		{"grid lo above hi", func() (*graph.EdgeList, error) { return Grid(4, 2, 1, 1) }},
	}
	for _, c := range cases {
		if e, err := c.call(); err == nil {
			t.Errorf("%s: got a graph with %d vertices, want an error", c.name, e.N)
		}
	}
}

func TestGridShape(t *testing.T) {
	for _, seed := range seeds(t) {
		for _, side := range []int32{0, 1, 2, 3, 17, 512} {
			e, err := Grid(side, -3, 1000, seed)
			if err != nil {
				t.Fatal(err)
			}
			if err := e.Validate(); err != nil {
				t.Fatal(err)
			}
			wantM := 0
			if side > 1 {
				wantM = 4 * int(side) * int(side-1)
			}
			if e.N != side*side || e.M() != wantM {
				t.Fatalf("side %d: %d vertices and %d arcs, want %d and %d", side, e.N, e.M(), side*side, wantM)
			}
			checkWeightRange(t, e, -3, 1000)
			// Every arc joins grid neighbours, and each vertex has each of its
			// neighbours exactly once.
			seen := make(map[[2]int32]bool, e.M())
			for i := range e.Src {
				u, v := e.Src[i], e.Dst[i]
				ur, uc, vr, vc := u/side, u%side, v/side, v%side
				if d := abs(ur-vr) + abs(uc-vc); d != 1 {
					t.Fatalf("side %d: arc %d -> %d joins non-neighbours", side, u, v)
				}
				if seen[[2]int32{u, v}] {
					t.Fatalf("side %d: arc %d -> %d twice", side, u, v)
				}
				seen[[2]int32{u, v}] = true
				if i > 0 && e.Src[i-1] > u {
					t.Fatalf("side %d: arcs not grouped by source at %d", side, i)
				}
			}
		}
	}
}

func abs(x int32) int32 {
	if x < 0 {
		return -x
	}
	return x
}

func TestErdosRenyiShape(t *testing.T) {
	for _, seed := range seeds(t) {
		for _, c := range []struct {
			n int32
			p float64
		}{{0, 0.5}, {1, 1}, {2, 1}, {50, 0}, {50, 1}, {300, 0.05}, {2000, 0.001}, {1000, 0.5}, {1100, 1}, {4000, 0.01}} {
			e, err := ErdosRenyi(c.n, c.p, 1, 100, seed)
			if err != nil {
				t.Fatal(err)
			}
			if err := e.Validate(); err != nil {
				t.Fatal(err)
			}
			checkWeightRange(t, e, 1, 100)
			for i := range e.Src {
				if e.Src[i] == e.Dst[i] {
					t.Fatalf("n %d p %v: self-loop at %d", c.n, c.p, e.Src[i])
				}
				if i > 0 && (e.Src[i-1] > e.Src[i] || e.Src[i-1] == e.Src[i] && e.Dst[i-1] >= e.Dst[i]) {
					t.Fatalf("n %d p %v: arcs %d and %d out of order or repeated", c.n, c.p, i-1, i)
				}
			}
			pairs := float64(c.n) * float64(c.n-1)
			mean := c.p * pairs
			sd := math.Sqrt(pairs * c.p * (1 - c.p))
			// Six standard deviations: a false alarm is far rarer than one in
			// a hundred million runs.
			if got := float64(e.M()); math.Abs(got-mean) > 6*sd+1e-9 {
				t.Errorf("n %d p %v: %v arcs, want %v ± %v", c.n, c.p, got, mean, 6*sd)
			}
		}
	}
}

// TestErdosRenyiUniform checks that the arcs spread evenly over sources and
// over the target side of each source (skipping must not favour either
// end of a row).
func TestErdosRenyiUniform(t *testing.T) {
	const n, p = 400, 0.1
	e, err := ErdosRenyi(n, p, 1, 1, freshSeed(t))
	if err != nil {
		t.Fatal(err)
	}
	var below, above int
	firstHalf := 0
	for i := range e.Src {
		if e.Dst[i] < e.Src[i] {
			below++
		} else {
			above++
		}
		if e.Src[i] < n/2 {
			firstHalf++
		}
	}
	// Below and above the diagonal hold equally many pairs.
	total := float64(e.M())
	if d := math.Abs(float64(below-above)) / math.Sqrt(total); d > 6 {
		t.Errorf("%d arcs below the diagonal and %d above", below, above)
	}
	if d := math.Abs(float64(2*firstHalf)-total) / math.Sqrt(total); d > 6 {
		t.Errorf("%d of %v arcs leave the first half of the vertices", firstHalf, total)
	}
}

func TestRandomDegreeShape(t *testing.T) {
	for _, seed := range seeds(t) {
		for _, c := range []struct {
			n int32
			k int
		}{{0, 3}, {2, 1}, {2, 4}, {3, 1}, {100, 1}, {1000, 7}, {degreeChunk*2 + 7, 3}} {
			e, err := RandomDegree(c.n, c.k, -5, 5, seed)
			if err != nil {
				t.Fatal(err)
			}
			if err := e.Validate(); err != nil {
				t.Fatal(err)
			}
			if e.M() != int(c.n)*c.k {
				t.Fatalf("n %d k %d: %d arcs", c.n, c.k, e.M())
			}
			checkWeightRange(t, e, -5, 5)
			g := graph.BuildCSR(e)
			for u := int32(0); u < g.N; u++ {
				if g.Degree(u) != c.k {
					t.Fatalf("n %d k %d: vertex %d has out-degree %d", c.n, c.k, u, g.Degree(u))
				}
			}
			for i := range e.Src {
				if e.Src[i] == e.Dst[i] {
					t.Fatalf("n %d k %d: self-loop at %d", c.n, c.k, e.Src[i])
				}
			}
			if !reachesAll(g) || !reachesAll(graph.BuildReverseCSR(e)) {
				t.Fatalf("n %d k %d: not strongly connected", c.n, c.k)
			}
		}
	}
}

// TestDeterminism checks that a seed fixes the graph, whatever the number
// of threads, and that another seed changes it. The graphs are large enough
// to be cut into several independently drawn pieces.
func TestDeterminism(t *testing.T) {
	seed := freshSeed(t)
	build := map[string]func(seed uint64) (*graph.EdgeList, error){
		"erdos-renyi": func(s uint64) (*graph.EdgeList, error) { return ErdosRenyi(3000, 0.01, 1, 1000, s) },
		"degree":      func(s uint64) (*graph.EdgeList, error) { return RandomDegree(degreeChunk*3, 4, 1, 1000, s) },
		"grid":        func(s uint64) (*graph.EdgeList, error) { return Grid(300, 1, 1000, s) },
	}
	for name, f := range build {
		a, err := f(seed)
		if err != nil {
			t.Fatal(err)
		}
		for _, procs := range []int{1, 3, 8} {
			prev := runtime.GOMAXPROCS(procs)
			b, err := f(seed)
			runtime.GOMAXPROCS(prev)
			if err != nil {
				t.Fatal(err)
			}
			if !equalEdgeLists(a, b) {
				t.Errorf("%s: runs with seed %d at GOMAXPROCS %d and %d differ", name, seed, prev, procs)
			}
		}
		c, err := f(seed + 1)
		if err != nil {
			t.Fatal(err)
		}
		if equalEdgeLists(a, c) {
			t.Errorf("%s: seeds %d and %d give the same graph", name, seed, seed+1)
		}
	}
}

func TestWeightsCoverRange(t *testing.T) {
	e, err := Grid(64, math.MinInt32, math.MaxInt32, freshSeed(t))
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := e.WeightRange()
	// With 16,128 draws over the whole int32 range, both halves show up.
	if lo >= 0 || hi <= 0 {
		t.Errorf("weights span only [%d, %d]", lo, hi)
	}
	e, err = Grid(8, 7, 7, 1)
	if err != nil {
		t.Fatal(err)
	}
	checkWeightRange(t, e, 7, 7)
}
