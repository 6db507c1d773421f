package shortesttest

import (
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/graph/path"
	"gonum.org/v1/gonum/graph/simple"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
)

// The references below are written for obviousness, not speed: the
// algorithms under test are checked against them and against gonum.

// AllPairs is the textbook Floyd-Warshall on int64 with explicit
// "no path" tests. It reports whether the graph has a negative cycle (some
// vertex reaches itself at negative cost) and stops there, before values
// can run away.
func AllPairs(e *graph.EdgeList) (dist [][]int64, negativeCycle bool) {
	n := int(e.N)
	dist = make([][]int64, n)
	for i := range dist {
		dist[i] = make([]int64, n)
		for j := range dist[i] {
			dist[i][j] = paths.Unreachable
		}
		dist[i][i] = 0
	}
	for i := range e.Src {
		u, v, w := e.Src[i], e.Dst[i], int64(e.Weight[i])
		dist[u][v] = min(dist[u][v], w)
	}
	for k := range n {
		for i := range n {
			for j := range n {
				if dist[i][k] != paths.Unreachable && dist[k][j] != paths.Unreachable {
					dist[i][j] = min(dist[i][j], dist[i][k]+dist[k][j])
				}
			}
		}
		for i := range n {
			if dist[i][i] < 0 {
				return nil, true
			}
		}
	}
	return dist, false
}

// BellmanFord is round-based Bellman-Ford over the arc list:
// n-1 rounds relax every arc, and a further round that still relaxes an
// arc proves a negative cycle Reachable from s.
func BellmanFord(e *graph.EdgeList, s int32) (dist []int64, negativeCycle bool) {
	dist = make([]int64, e.N)
	for i := range dist {
		dist[i] = paths.Unreachable
	}
	dist[s] = 0
	relax := func() bool {
		changed := false
		for i := range e.Src {
			u, v, w := e.Src[i], e.Dst[i], int64(e.Weight[i])
			if dist[u] != paths.Unreachable && dist[u]+w < dist[v] {
				dist[v] = dist[u] + w
				changed = true
			}
		}
		return changed
	}
	for range int(e.N) - 1 {
		if !relax() {
			break
		}
	}
	if relax() {
		return nil, true
	}
	return dist, false
}

// minArcWeights maps each arc (u, v) to its smallest weight.
func minArcWeights(e *graph.EdgeList) map[[2]int32]int64 {
	w := make(map[[2]int32]int64, e.M())
	for i := range e.Src {
		key := [2]int32{e.Src[i], e.Dst[i]}
		if old, ok := w[key]; !ok || int64(e.Weight[i]) < old {
			w[key] = int64(e.Weight[i])
		}
	}
	return w
}

// gonumGraph converts e for gonum: the smallest of parallel arcs, no
// self-loops (gonum's simple graphs hold neither, and a non-negative
// self-loop never lies on a shortest path). ok is false when a negative
// self-loop makes the conversion lossy.
func gonumGraph(e *graph.EdgeList) (g *simple.WeightedDirectedGraph, ok bool) {
	g = simple.NewWeightedDirectedGraph(0, math.Inf(1))
	for v := range e.N {
		g.AddNode(simple.Node(v))
	}
	for arc, w := range minArcWeights(e) {
		if arc[0] == arc[1] {
			if w < 0 {
				return nil, false
			}
			continue
		}
		g.SetWeightedEdge(g.NewWeightedEdge(simple.Node(arc[0]), simple.Node(arc[1]), float64(w)))
	}
	return g, true
}

// gonumDistance turns gonum's float64 weight into pathflow's int64
// convention (exact for the magnitudes the tests use, < 2^53).
func gonumDistance(w float64) int64 {
	if math.IsInf(w, 1) {
		return paths.Unreachable
	}
	return int64(w)
}

// GonumAllPairs runs gonum's FloydWarshall.
func GonumAllPairs(e *graph.EdgeList) (dist [][]int64, negativeCycle, ok bool) {
	g, ok := gonumGraph(e)
	if !ok {
		return nil, false, false
	}
	all, noCycle := path.FloydWarshall(g)
	if !noCycle {
		return nil, true, true
	}
	dist = make([][]int64, e.N)
	for u := range e.N {
		dist[u] = make([]int64, e.N)
		for v := range e.N {
			dist[u][v] = gonumDistance(all.Weight(int64(u), int64(v)))
		}
	}
	return dist, false, true
}

// GonumSingleSource runs gonum's DijkstraFrom for non-negative weights
// and BellmanFordFrom otherwise.
func GonumSingleSource(e *graph.EdgeList, s int32) (dist []int64, negativeCycle, ok bool) {
	g, ok := gonumGraph(e)
	if !ok {
		return nil, false, false
	}
	var sp path.Shortest
	if e.HasNegativeWeight() {
		var noCycle bool
		if sp, noCycle = path.BellmanFordFrom(simple.Node(s), g); !noCycle {
			return nil, true, true
		}
	} else {
		sp = path.DijkstraFrom(simple.Node(s), g)
	}
	dist = make([]int64, e.N)
	for v := range e.N {
		dist[v] = gonumDistance(sp.WeightTo(int64(v)))
	}
	return dist, false, true
}

// CheckTree checks a tree from an algorithm under test: paths.CheckTree,
// the distances against want, and every path from the parents: its arcs
// exist and their weights sum to the distance.
func CheckTree(t *testing.T, e *graph.EdgeList, g *graph.CSR, tree *paths.Tree, want []int64) {
	t.Helper()
	if err := paths.CheckTree(g, tree); err != nil {
		t.Fatalf("source %d: %v", tree.Source, err)
	}
	for v := range e.N {
		if tree.Dist[v] != want[v] {
			t.Fatalf("source %d: distance to %d is %d, want %d", tree.Source, v, tree.Dist[v], want[v])
		}
	}
	if tree.Parent == nil {
		return
	}
	weights := minArcWeights(e)
	for v := range e.N {
		p := tree.To(v)
		if !tree.Reachable(v) {
			if p != nil {
				t.Fatalf("source %d: path %v to unreachable %d", tree.Source, p, v)
			}
			continue
		}
		if len(p) == 0 || p[0] != tree.Source || p[len(p)-1] != v {
			t.Fatalf("source %d: path to %d is %v", tree.Source, v, p)
		}
		sum := int64(0)
		for i := 1; i < len(p); i++ {
			w, ok := weights[[2]int32{p[i-1], p[i]}]
			if !ok {
				t.Fatalf("source %d: path to %d uses missing arc %d -> %d", tree.Source, v, p[i-1], p[i])
			}
			sum += w
		}
		if sum != tree.Dist[v] {
			t.Fatalf("source %d: path %v to %d weighs %d, distance %d", tree.Source, p, v, sum, tree.Dist[v])
		}
	}
}

// CheckMatrix checks an all-pairs result against want and, with
// predecessors, every row as a tree.
func CheckMatrix(t *testing.T, e *graph.EdgeList, m *paths.Matrix, want [][]int64, withParents bool) {
	t.Helper()
	if m.N != e.N {
		t.Fatalf("matrix of %d vertices for %d", m.N, e.N)
	}
	if withParents != (m.Parent != nil) {
		t.Fatalf("asked for parents: %v, got them: %v", withParents, m.Parent != nil)
	}
	g := graph.BuildCSR(e)
	for s := range e.N {
		for v := range e.N {
			if d := m.Distance(s, v); d != want[s][v] {
				t.Fatalf("distance %d -> %d is %d, want %d", s, v, d, want[s][v])
			}
		}
		if withParents {
			CheckTree(t, e, g, m.Row(s), want[s])
		}
	}
}

// CheckNegativeCycle checks that err reports a real negative cycle of e
// through the named vertex.
func CheckNegativeCycle(t *testing.T, e *graph.EdgeList, err error) {
	t.Helper()
	var nc *backend.NegativeCycleError
	if !errors.As(err, &nc) {
		t.Fatalf("got error %v, want a negative cycle", err)
	}
	if len(nc.Cycle) == 0 || nc.Cycle[0] != nc.Vertex {
		t.Fatalf("cycle %v does not start at vertex %d", nc.Cycle, nc.Vertex)
	}
	weights := minArcWeights(e)
	sum := int64(0)
	for i, u := range nc.Cycle {
		v := nc.Cycle[(i+1)%len(nc.Cycle)]
		w, ok := weights[[2]int32{u, v}]
		if !ok {
			t.Fatalf("cycle %v uses missing arc %d -> %d", nc.Cycle, u, v)
		}
		sum += w
	}
	if sum >= 0 {
		t.Fatalf("cycle %v weighs %d, not negative", nc.Cycle, sum)
	}
	seen := map[int32]bool{}
	for _, v := range nc.Cycle {
		if seen[v] {
			t.Fatalf("cycle %v repeats vertex %d", nc.Cycle, v)
		}
		seen[v] = true
	}
}
