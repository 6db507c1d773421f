package routes

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/results"
)

// zeroLoop is a graph whose parent rule loops: 0 -> 3 (weight 1), then
// 3 -> 1, 1 -> 2, 2 -> 1 of weight zero, and 2 -> 4 (1). The smallest
// tight in-neighbour of 1 is 2 and of 2 is 1, so walking back from 4
// never reaches the source; the tree must be mended instead.
func zeroLoop() *graph.EdgeList {
	e := graph.NewEdgeList(5, 5)
	for _, a := range [][3]int32{{0, 3, 1}, {3, 1, 0}, {1, 2, 0}, {2, 1, 0}, {2, 4, 1}} {
		e.Src, e.Dst, e.Weight = append(e.Src, a[0]), append(e.Dst, a[1]), append(e.Weight, a[2])
	}
	return e
}

// TestPathMendsALoopOfZeroWeights checks that a walk back that loops over
// arcs of weight zero ends in the source all the same, on a path of tight
// arcs, and that the Tracer says it built the tree.
func TestPathMendsALoopOfZeroWeights(t *testing.T) {
	e := zeroLoop()
	ix, err := NewIndex(Network{Edges: e})
	if err != nil {
		t.Fatal(err)
	}
	tr := NewTracer(ix, graph.BuildCSR(e))
	rows := &results.Rows{Dist64: []int64{0, 1, 1, 1, 2}}
	got, cost, ok := tr.Path(nil, 0, 4, rows.Distances())
	if !ok || cost != 2 || !slices.Equal(got, []int32{0, 3, 1, 2, 4}) {
		t.Fatalf("path %v, cost %d, ok %v; want [0 3 1 2 4], 2", got, cost, ok)
	}
	if tr.TreesBuilt() != 1 {
		t.Errorf("%d trees built, want 1", tr.TreesBuilt())
	}
	if got, _, _ := tr.Path(nil, 0, 0, rows.Distances()); !slices.Equal(got, []int32{0}) {
		t.Errorf("the path from the source to itself is %v", got)
	}
}

// TestArcTakesTheLightestThenQuickest checks the arc a route takes
// between two vertices joined by parallel arcs.
func TestArcTakesTheLightestThenQuickest(t *testing.T) {
	e := graph.NewEdgeList(2, 4)
	e.Src, e.Dst, e.Weight = []int32{0, 0, 0, 0}, []int32{1, 1, 1, 1}, []int32{5, 3, 3, 3}
	ix, err := NewIndex(Network{Edges: e, TimeMS: []int32{1, 9, 7, 7}, LengthM: []int32{1, 1, 4, 2}})
	if err != nil {
		t.Fatal(err)
	}
	if a := ix.Arc(0, 1); a != 3 {
		t.Errorf("arc %d, want 3 (weight 3, time 7, length 2)", a)
	}
	if a := ix.Arc(1, 0); a != NoArc {
		t.Errorf("arc %d from 1 to 0, want none", a)
	}
}

// randomGraph returns a graph of n vertices and m random arcs of weights
// lo..hi: small weights make many shortest paths tie, which the parent
// rule settles.
func randomGraph(rng *rand.Rand, n, m int, lo, hi int32) *graph.EdgeList {
	e := graph.NewEdgeList(int32(n), m)
	for range m {
		e.Src = append(e.Src, int32(rng.IntN(n)))
		e.Dst = append(e.Dst, int32(rng.IntN(n)))
		e.Weight = append(e.Weight, lo+rng.Int32N(hi-lo+1))
	}
	return e
}

// exactDistances returns source's distances by Bellman-Ford, as a
// backend's whole row: paths.Unreachable where there is no path.
func exactDistances(e *graph.EdgeList, source int32) []int64 {
	dist := make([]int64, e.N)
	for v := range dist {
		dist[v] = paths.Unreachable
	}
	dist[source] = 0
	for changed := true; changed; {
		changed = false
		for a := range e.Src {
			u, v := e.Src[a], e.Dst[a]
			if dist[u] == paths.Unreachable {
				continue
			}
			if d := dist[u] + int64(e.Weight[a]); d < dist[v] {
				dist[v], changed = d, true
			}
		}
	}
	return dist
}

// TestPathsOfOneSourceAgreeWithFreshWalks checks that the paths a Tracer
// reads for many targets of one source, in random order, which reuse the
// steps of the paths before them, are the paths a fresh Tracer reads for
// each target alone and the paths of the parents that
// paths.ParentFinder gives (the backends' parents), over positive weights
// and over weights with zeros, whose cycles make the backends rebuild
// whole trees.
func TestPathsOfOneSourceAgreeWithFreshWalks(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, weights := range [][2]int32{{1, 3}, {0, 2}} {
		e := randomGraph(rng, 300, 1500, weights[0], weights[1])
		csr := graph.BuildCSR(e)
		ix, err := NewIndex(Network{Edges: e})
		if err != nil {
			t.Fatal(err)
		}
		shared := NewTracer(ix, csr)
		finder := paths.NewParentFinder(csr)
		parent := make([]int32, e.N)
		for _, source := range []int32{0, 17, 299} {
			exact := exactDistances(e, source)
			rows := &results.Rows{Dist64: exact}
			if err := finder.Parents(source, rows.Dist64, parent); err != nil {
				t.Fatal(err)
			}
			reached := 0
			for _, target := range rng.Perm(int(e.N)) {
				got, _, ok := shared.Path(nil, source, int32(target), rows.Distances())
				want, _, wantOK := NewTracer(ix, csr).Path(nil, source, int32(target), rows.Distances())
				if ok != wantOK || !slices.Equal(got, want) {
					t.Fatalf("weights %v, %d -> %d: path %v (%v), alone %v (%v)", weights, source, target, got, ok, want, wantOK)
				}
				if ok {
					if tree := paths.Trace(parent, int32(target)); !slices.Equal(got, tree) {
						t.Fatalf("%d -> %d: path %v, the parents' %v", source, target, got, tree)
					}
				}
				if ok {
					reached++
				}
			}
			if reached < 100 {
				t.Fatalf("weights %v: %d targets of %d reached: the graph tests little", weights, reached, source)
			}
		}
	}
}

// TestPathsAreWhatPathReads checks that Paths gives, for a source's
// targets in one call (unreachable ones, repeats and the source itself
// among them), the paths and distances a fresh Tracer's Path reads for
// each alone, over positive weights, over weights with zeros (whose
// cycles make the Tracer build whole trees) and on a loop of zero
// weights.
func TestPathsAreWhatPathReads(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	graphs := []*graph.EdgeList{randomGraph(rng, 300, 1500, 1, 3), randomGraph(rng, 300, 1500, 0, 2), zeroLoop()}
	for gi, e := range graphs {
		csr := graph.BuildCSR(e)
		ix, err := NewIndex(Network{Edges: e})
		if err != nil {
			t.Fatal(err)
		}
		tracer := NewTracer(ix, csr)
		for _, source := range []int32{0, 3, 4} {
			exact := exactDistances(e, source)
			rows := &results.Rows{Dist64: exact}
			var targets []int32
			for range 80 {
				targets = append(targets, rng.Int32N(e.N))
			}
			targets = append(targets, source, targets[0])
			prefix := []int32{7, 7} // what dst held before
			dst, ends, costs := tracer.Paths(prefix, []int{2}, []int64{-1}, source, targets, rows.Distances())
			if len(ends) != len(targets)+1 || len(costs) != len(targets)+1 || !slices.Equal(dst[:2], prefix) {
				t.Fatalf("graph %d, source %d: %d ends, %d costs for %d targets after one", gi, source, len(ends), len(costs), len(targets))
			}
			for j, target := range targets {
				want, wantCost, _ := NewTracer(ix, csr).Path(nil, source, target, rows.Distances())
				got := dst[ends[j]:ends[j+1]]
				if !slices.Equal(got, want) || costs[j+1] != wantCost {
					t.Fatalf("graph %d, %d -> %d: path %v (%d), Path's %v (%d)", gi, source, target, got, costs[j+1], want, wantCost)
				}
			}
		}
	}
}
