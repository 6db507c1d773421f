// Package testgraphs is a table of small graphs whose shortest paths were
// worked out by hand, for the tests of every algorithm, variant and
// backend: each entry names the corner case it covers (zero-weight ties,
// unreachable vertices, self-loops, parallel arcs, negative arcs, negative
// cycles) and gives, per source, the expected distances and the set of
// valid parents of every vertex.
package testgraphs

import (
	"fmt"
	"math"
	"slices"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
)

// U is the expected distance of a vertex the source cannot reach.
const U = paths.Unreachable

// Arc is one arc of a test graph.
type Arc struct{ From, To, Weight int32 }

// Graph is one test case.
type Graph struct {
	// Name says what the case covers.
	Name string
	// N is the vertex count; Arcs the arcs, in input order.
	N    int32
	Arcs []Arc
	// Sources are the sources to search from.
	Sources []int32
	// Want[i][v] is the distance from Sources[i] to v, or U. Nil when
	// NegativeCycle.
	Want [][]int64
	// Parents[i][v] lists every vertex that may precede v on a shortest
	// path from Sources[i]; empty for the source and unreachable vertices.
	Parents [][][]int32
	// NegativeCycle is true when a negative cycle is reachable from every
	// source: every algorithm must report it.
	NegativeCycle bool
	// UnreachableCycle is true when the graph has a negative cycle that no
	// source reaches: searches from Sources answer Want, and algorithms
	// over all pairs must report the cycle.
	UnreachableCycle bool
	// Int64 is true when some distance or arc sum lies outside int32: a
	// backend with int32 distances must refuse the graph rather than
	// answer it.
	Int64 bool
}

// EdgeList returns the graph's arcs as an edge list.
func (g *Graph) EdgeList() *graph.EdgeList {
	e := graph.NewEdgeList(g.N, len(g.Arcs))
	for _, a := range g.Arcs {
		e.Add(a.From, a.To, a.Weight)
	}
	return e
}

// CSR returns the graph in compressed sparse rows.
func (g *Graph) CSR() *graph.CSR { return graph.BuildCSR(g.EdgeList()) }

// Negative reports whether some arc weight is negative.
func (g *Graph) Negative() bool {
	return slices.ContainsFunc(g.Arcs, func(a Arc) bool { return a.Weight < 0 })
}

// Check compares a result from Sources[i] with the answer: the distances
// exactly, and, unless parent is nil, that every parent is one of the
// valid ones and that following parents from every reachable vertex leads
// to the source.
func (g *Graph) Check(i int, dist []int64, parent []int32) error {
	source := g.Sources[i]
	if !slices.Equal(dist, g.Want[i]) {
		return fmt.Errorf("%s: distances from %d are %v, want %v", g.Name, source, dist, g.Want[i])
	}
	if parent == nil {
		return nil
	}
	if len(parent) != int(g.N) {
		return fmt.Errorf("%s: %d parents for %d vertices", g.Name, len(parent), g.N)
	}
	for v, p := range parent {
		valid := g.Parents[i][v]
		if (len(valid) == 0 && p != paths.NoParent) || (len(valid) > 0 && !slices.Contains(valid, p)) {
			return fmt.Errorf("%s: from %d, vertex %d has parent %d, want one of %v", g.Name, source, v, p, valid)
		}
	}
	tree := &paths.Tree{Source: source, Dist: dist, Parent: parent}
	for v := range g.N {
		if tree.Reachable(v) && tree.To(v) == nil {
			return fmt.Errorf("%s: from %d, the parents of %d loop: %v", g.Name, source, v, parent)
		}
	}
	return nil
}

// none is the parent set of the source and of unreachable vertices.
var none []int32

// Graphs is the table.
var Graphs = []Graph{
	{
		Name: "single vertex", N: 1, Sources: []int32{0},
		Want: [][]int64{{0}}, Parents: [][][]int32{{none}},
	},
	{
		// 0 reaches 4 at cost 3 directly and through 3 over an arc of
		// weight 0; 3 is reached at the same cost through 1 and 2.
		Name: "zero-weight tie", N: 5,
		Arcs:    []Arc{{0, 1, 2}, {0, 2, 2}, {1, 3, 1}, {2, 3, 1}, {3, 4, 0}, {0, 4, 3}, {1, 4, 3}},
		Sources: []int32{0, 3},
		Want:    [][]int64{{0, 2, 2, 3, 3}, {U, U, U, 0, 0}},
		Parents: [][][]int32{
			{none, {0}, {0}, {1, 2}, {3, 0}},
			{none, none, none, none, {3}},
		},
	},
	{
		// Two components: each source reaches only its own.
		Name: "unreachable vertices", N: 4,
		Arcs:    []Arc{{0, 1, 5}, {2, 3, 1}, {3, 2, 1}},
		Sources: []int32{0, 2},
		Want:    [][]int64{{0, 5, U, U}, {U, U, 0, 1}},
		Parents: [][][]int32{{none, {0}, none, none}, {none, none, none, {2}}},
	},
	{
		// Self-loops never shorten a path; the one of weight 0 at 1 is a
		// tight arc that must not become 1's parent.
		Name: "self-loops", N: 3,
		Arcs:    []Arc{{0, 0, 4}, {0, 1, 1}, {1, 1, 0}, {1, 2, 2}, {2, 2, 7}},
		Sources: []int32{0, 2},
		Want:    [][]int64{{0, 1, 3}, {U, U, 0}},
		Parents: [][][]int32{{none, {0}, {1}}, {none, none, none}},
	},
	{
		// Parallel arcs count with their smallest weight; 2 is reached at
		// cost 3 directly and through 1.
		Name: "parallel arcs", N: 3,
		Arcs:    []Arc{{0, 1, 5}, {0, 1, 2}, {0, 1, 9}, {1, 2, 1}, {0, 2, 4}, {0, 2, 3}},
		Sources: []int32{0, 1},
		Want:    [][]int64{{0, 2, 3}, {U, 0, 1}},
		Parents: [][][]int32{{none, {0}, {1, 0}}, {none, none, {1}}},
	},
	{
		// 1 <-> 2 at weight 0 both ways: each is a tight in-neighbour of
		// the other, and only 0 -> 1 -> 2 is a tree.
		Name: "zero-weight cycle", N: 4,
		Arcs:    []Arc{{0, 1, 1}, {1, 2, 0}, {2, 1, 0}, {2, 3, 2}},
		Sources: []int32{0},
		Want:    [][]int64{{0, 1, 1, 3}},
		Parents: [][][]int32{{none, {0, 2}, {1}, {2}}},
	},
	{
		// A small road network, every street both ways: the top row
		// 0 - 1 - 2 is fast (1 per block), 0 - 3, 2 - 5 and 3 - 4 take 2,
		// 1 - 4 takes 5 and the street 4 - 5 is missing. From 5, vertex 4
		// costs 8 both down 1 - 4 and round through 0 and 3.
		Name: "small road network", N: 6,
		Arcs: []Arc{{0, 1, 1}, {1, 0, 1}, {1, 2, 1}, {2, 1, 1}, {0, 3, 2}, {3, 0, 2},
			{1, 4, 5}, {4, 1, 5}, {2, 5, 2}, {5, 2, 2}, {3, 4, 2}, {4, 3, 2}},
		Sources: []int32{3, 5},
		Want:    [][]int64{{2, 3, 4, 0, 2, 6}, {4, 3, 2, 6, 8, 0}},
		Parents: [][][]int32{
			{{3}, {0}, {1}, none, {3}, {2}},
			{{1}, {2}, {5}, {0}, {1, 3}, none},
		},
	},
	{
		// The detour 0 -> 2 -> 1 beats 0 -> 1; the cycle 1 -> 3 -> 4 -> 1
		// weighs 3.
		Name: "negative arcs without a cycle", N: 5,
		Arcs:    []Arc{{0, 1, 4}, {0, 2, 2}, {2, 1, -3}, {1, 3, 2}, {3, 4, -1}, {2, 4, 5}, {4, 1, 2}},
		Sources: []int32{0, 3},
		Want:    [][]int64{{0, -1, 2, 1, 0}, {U, 1, U, 0, -1}},
		Parents: [][][]int32{
			{none, {2}, {0}, {1}, {3}},
			{none, {4}, none, none, {3}},
		},
	},
	{
		// 1 -> 2 -> 1 weighs -1 and every source reaches it.
		Name: "negative cycle", N: 4,
		Arcs:          []Arc{{0, 1, 1}, {1, 2, -2}, {2, 1, 1}, {2, 3, 1}, {3, 0, 1}},
		Sources:       []int32{0, 3},
		NegativeCycle: true,
	},
	{
		// Nothing connects the two vertices.
		Name: "two vertices, no arcs", N: 2, Sources: []int32{0, 1},
		Want:    [][]int64{{0, U}, {U, 0}},
		Parents: [][][]int32{{none, none}, {none, none}},
	},
	{
		// The shortcut 0 -> 2 (10) loses to the path through 1 (2 + 3).
		Name: "path with shortcut", N: 3,
		Arcs:    []Arc{{0, 1, 2}, {1, 2, 3}, {0, 2, 10}},
		Sources: []int32{0, 1},
		Want:    [][]int64{{0, 2, 5}, {U, 0, 3}},
		Parents: [][][]int32{{none, {0}, {1}}, {none, none, {1}}},
	},
	{
		// Every arc weighs 0: 3 is reached through 1 and 2 alike.
		Name: "diamond, zero weights", N: 4,
		Arcs:    []Arc{{0, 1, 0}, {0, 2, 0}, {1, 3, 0}, {2, 3, 0}},
		Sources: []int32{0},
		Want:    [][]int64{{0, 0, 0, 0}},
		Parents: [][][]int32{{none, {0}, {0}, {1, 2}}},
	},
	{
		// 0 -> 1 three times (the 3 counts), 1 -> 2 twice (the 2 counts),
		// the way back 1 -> 0 and self-loops that never help; 2 reaches
		// only itself.
		Name: "parallel arcs and self-loops", N: 3,
		Arcs: []Arc{{0, 1, 5}, {0, 1, 3}, {0, 1, 7}, {1, 0, 1},
			{1, 1, 0}, {2, 2, 4}, {1, 2, 9}, {1, 2, 2}},
		Sources: []int32{0, 2},
		Want:    [][]int64{{0, 3, 5}, {U, U, 0}},
		Parents: [][][]int32{{none, {0}, {1}}, {none, none, none}},
	},
	{
		// A triangle 0 -> 1 -> 2 -> 0 of weight 1 arcs, the pair 3 <-> 4
		// of weight 2 with 4 -> 5 of weight 1, and 6 alone.
		Name: "disconnected", N: 7,
		Arcs:    []Arc{{0, 1, 1}, {1, 2, 1}, {2, 0, 1}, {3, 4, 2}, {4, 3, 2}, {4, 5, 1}},
		Sources: []int32{0, 3, 6},
		Want: [][]int64{
			{0, 1, 2, U, U, U, U},
			{U, U, U, 0, 2, 3, U},
			{U, U, U, U, U, U, 0},
		},
		Parents: [][][]int32{
			{none, {0}, {1}, none, none, none, none},
			{none, none, none, none, {3}, {4}, none},
			{none, none, none, none, none, none, none},
		},
	},
	{
		// From 0, 1 costs 2 - 3 = -1 through 2, and 4 costs -1 + 2 - 5 =
		// -4 through 1 and 3 rather than 2 + 1; the cycle 2 -> 1 -> 3 ->
		// 4 -> 2 weighs -3 + 2 - 5 + 7 = 1. From 3, 2 costs -5 + 7.
		Name: "negative arcs, a detour through a negative path", N: 5,
		Arcs:    []Arc{{0, 1, 4}, {0, 2, 2}, {2, 1, -3}, {1, 3, 2}, {3, 4, -5}, {2, 4, 1}, {4, 2, 7}},
		Sources: []int32{0, 3},
		Want:    [][]int64{{0, -1, 2, 1, -4}, {U, -1, 2, 0, -5}},
		Parents: [][][]int32{
			{none, {2}, {0}, {1}, {3}},
			{none, {2}, {4}, none, {3}},
		},
	},
	{
		// The only vertex, with a self-loop that cannot shorten anything.
		Name: "one vertex, self-loop", N: 1,
		Arcs:    []Arc{{0, 0, 5}},
		Sources: []int32{0},
		Want:    [][]int64{{0}}, Parents: [][][]int32{{none}},
	},
	{
		// A self-loop of weight -1 is a negative cycle.
		Name: "one vertex, negative self-loop", N: 1,
		Arcs:          []Arc{{0, 0, -1}},
		Sources:       []int32{0},
		NegativeCycle: true,
	},
	{
		// 0 -> 1 at -4 (beside 5) and back at 3: the cycle weighs -1.
		Name: "negative two-cycle via a parallel arc", N: 2,
		Arcs:          []Arc{{0, 1, 5}, {0, 1, -4}, {1, 0, 3}},
		Sources:       []int32{0, 1},
		NegativeCycle: true,
	},
	{
		// 1 -> 2 -> 1 weighs -2; 4 reaches it through 0, while 3 reaches
		// nothing (so it is no source here).
		Name: "negative cycle behind a path", N: 5,
		Arcs:          []Arc{{0, 1, 1}, {1, 2, -3}, {2, 1, 1}, {2, 3, 1}, {4, 0, 1}},
		Sources:       []int32{0, 4},
		NegativeCycle: true,
	},
	{
		// 2 -> 3 -> 2 weighs -1, but 0 reaches only 1.
		Name: "negative cycle unreachable from the source", N: 4,
		Arcs:             []Arc{{0, 1, 1}, {2, 3, -2}, {3, 2, 1}},
		Sources:          []int32{0},
		Want:             [][]int64{{0, 1, U, U}},
		Parents:          [][][]int32{{none, {0}, none, none}},
		UnreachableCycle: true,
	},
	{
		// Arcs of weight MaxInt32 add up past int32 (1 -> 2 from 0 is
		// 2 * MaxInt32 long), and 0 -> 2 at MinInt32 + 1 is shorter.
		Name: "extreme weights", N: 3,
		Arcs:    []Arc{{0, 1, math.MaxInt32}, {1, 2, math.MaxInt32}, {0, 2, math.MinInt32 + 1}},
		Sources: []int32{0, 1},
		Want:    [][]int64{{0, math.MaxInt32, math.MinInt32 + 1}, {U, 0, math.MaxInt32}},
		Parents: [][][]int32{{none, {0}, {0}}, {none, none, {1}}},
		Int64:   true,
	},
}
