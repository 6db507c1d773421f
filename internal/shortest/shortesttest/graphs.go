package shortesttest

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/pathflow/pathflow/internal/generate"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/graph/graphtest"
	"github.com/pathflow/pathflow/internal/paths/testgraphs"
)

// Graph is one entry of the table every algorithm's test loops over.
type Graph struct {
	Name  string
	Edges *graph.EdgeList
}

// FreshSeed returns a new seed for this run and logs it so that a failure
// can be replayed.
func FreshSeed(t *testing.T) uint64 {
	t.Helper()
	seed := rand.Uint64()
	t.Logf("random graphs from seed %d", seed)
	return seed
}

// Edges builds a hand-written graph from {u, v, w} triples.
func Edges(n int32, arcs ...[3]int32) *graph.EdgeList {
	e := graph.NewEdgeList(n, len(arcs))
	for _, a := range arcs {
		e.Add(a[0], a[1], a[2])
	}
	return e
}

// HandGraphs are the shared hand-checked table (testgraphs.Graphs), whose
// shapes exercise the corner cases, and two shapes that table leaves out
// because not every backend takes them: no vertices at all, and a complete
// graph whose negative arcs run past int32 within the first round.
func HandGraphs() []Graph {
	var out []Graph
	for _, g := range testgraphs.Graphs {
		out = append(out, Graph{g.Name, g.EdgeList()})
	}
	return append(out,
		Graph{"empty", graph.NewEdgeList(0, 0)},
		Graph{"complete, every arc as negative as int32 results allow", CompleteGraph(24, -(graph.Inf32-1)/23)})
}

// CompleteGraph has every arc u -> v, u != v, with weight w. With w < 0
// every cycle is negative, and without clamping the values of an all-pairs
// algorithm would run past the int32 range before the first round ends.
func CompleteGraph(n, w int32) *graph.EdgeList {
	e := graph.NewEdgeList(n, int(n*(n-1)))
	for u := range n {
		for v := range n {
			if u != v {
				e.Add(u, v, w)
			}
		}
	}
	return e
}

// Reweighted applies random vertex potentials p: w(u, v) + p(u) - p(v).
// Every cycle keeps its weight, so a graph without negative cycles keeps
// none, but many arcs turn negative.
func Reweighted(r *rand.Rand, e *graph.EdgeList, span int32) *graph.EdgeList {
	p := make([]int32, e.N)
	for i := range p {
		p[i] = r.Int32N(2*span+1) - span
	}
	out := graph.NewEdgeList(e.N, e.M())
	for i := range e.Src {
		u, v := e.Src[i], e.Dst[i]
		out.Add(u, v, e.Weight[i]+p[u]-p[v])
	}
	return out
}

// WithNegativeCycle adds a cycle through length random vertices whose
// weights sum to -1.
func WithNegativeCycle(r *rand.Rand, e *graph.EdgeList, length int) *graph.EdgeList {
	out := graph.NewEdgeList(e.N, e.M()+length)
	out.Src = append(out.Src, e.Src...)
	out.Dst = append(out.Dst, e.Dst...)
	out.Weight = append(out.Weight, e.Weight...)
	vs := r.Perm(int(e.N))[:length]
	sum := int32(0)
	for i, v := range vs {
		w := r.Int32N(21) - 10
		if i == length-1 {
			w = -1 - sum
		}
		sum += w
		out.Add(int32(v), int32(vs[(i+1)%length]), w)
	}
	return out
}

// RandomGraphs are fresh graphs from seed: sparse and dense, with
// non-negative weights, with negative weights but no negative cycle, with
// planted negative cycles, and with weights large enough for int64 results.
func RandomGraphs(t *testing.T, seed uint64) []Graph {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 7))
	var out []Graph
	add := func(name string, e *graph.EdgeList) { out = append(out, Graph{name, e}) }
	add("random sparse", graphtest.RandomGraph(r, 40, 80, 0, 20, 0))
	add("random dense", graphtest.RandomGraph(r, 30, 600, 1, 1000, 0))
	add("random tiny weights", graphtest.RandomGraph(r, 50, 200, 0, 2, 0))
	add("random odd size", graphtest.RandomGraph(r, 67, 300, 0, 50, 0))
	add("random negative, no cycle", Reweighted(r, graphtest.RandomGraph(r, 45, 200, 0, 30, 0), 40))
	add("random negative cycle", WithNegativeCycle(r, graphtest.RandomGraph(r, 40, 120, 0, 30, 0), 5))
	add("random negative self-loop", WithNegativeCycle(r, graphtest.RandomGraph(r, 20, 60, 0, 9, 0), 1))
	add("random large weights", graphtest.RandomGraph(r, 40, 160, 1<<29, 1<<30, 0))
	add("random large negative weights", Reweighted(r, graphtest.RandomGraph(r, 40, 160, 0, 1<<29, 0), 1<<29))
	er, err := generate.ErdosRenyi(70, 0.1, 0, 100, r.Uint64())
	if err != nil {
		t.Fatal(err)
	}
	add("erdos-renyi", er)
	deg, err := generate.RandomDegree(90, 3, 1, 100, r.Uint64())
	if err != nil {
		t.Fatal(err)
	}
	add("random degree", deg)
	grid, err := generate.Grid(9, 0, 9, r.Uint64())
	if err != nil {
		t.Fatal(err)
	}
	add("grid", grid)
	add("grid, negative", Reweighted(r, grid, 20))
	return out
}

// Graphs is the shared table: the hand-written graphs and random ones
// from a fixed seed and from a fresh seed.
func Graphs(t *testing.T) []Graph {
	t.Helper()
	out := HandGraphs()
	for _, seed := range []uint64{1, FreshSeed(t)} {
		for _, g := range RandomGraphs(t, seed) {
			g.Name += " (seed " + strconv.FormatUint(seed, 10) + ")"
			out = append(out, g)
		}
	}
	return out
}

// Sources picks the sources a single-source test runs from: all of a
// small graph, else the ends, the middle and a few at random.
func Sources(r *rand.Rand, n int32) []int32 {
	if n <= 12 {
		out := make([]int32, n)
		for i := range out {
			out[i] = int32(i)
		}
		return out
	}
	out := []int32{0, n / 2, n - 1}
	for range 5 {
		out = append(out, r.Int32N(n))
	}
	return out
}

// Reachable reports whether a breadth-first search from s reaches v.
func Reachable(g *graph.CSR, s, v int32) bool {
	seen := make([]bool, g.N)
	seen[s] = true
	queue := []int32{s}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		if u == v {
			return true
		}
		for i := g.Offsets[u]; i < g.Offsets[u+1]; i++ {
			if w := g.Targets[i]; !seen[w] {
				seen[w] = true
				queue = append(queue, w)
			}
		}
	}
	return false
}
