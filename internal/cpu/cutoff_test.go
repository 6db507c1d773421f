package cpu

import (
	"context"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/internal/shortest/shortesttest"
)

// collectCells runs req and returns its rows as trees over the graph's
// vertices, and whether any block was sparse.
func collectCells(ctx context.Context, t *testing.T, b *Backend, req backend.Request) (trees []*paths.Tree, sparse bool, err error) {
	t.Helper()
	n := req.Edges.N
	trees = make([]*paths.Tree, len(req.Sources))
	var mu sync.Mutex
	err = b.Run(ctx, req, func(rows *results.Rows) error {
		defer rows.Release()
		if err := req.CheckRows(rows); err != nil {
			t.Error(err)
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		sparse = sparse || rows.Sparse()
		for i := range rows.Len() {
			if rows.Sparse() {
				trees[rows.First+i] = rows.SparseTree(i, n)
			} else {
				trees[rows.First+i] = rows.Tree(i).Copy()
			}
		}
		return nil
	})
	return trees, sparse, err
}

// checkCutoffTree checks a row computed with a distance cutoff: every
// vertex within the cutoff has its shortest distance, any other vertex is
// unreachable or has its shortest distance, and every reported vertex has
// a path of tight arcs from the source.
func checkCutoffTree(t *testing.T, label string, g *graph.CSR, tree *paths.Tree, want []int64, cutoff int64) {
	t.Helper()
	if err := paths.CheckParents(g, tree); err != nil {
		t.Fatalf("%s: source %d: %v", label, tree.Source, err)
	}
	for v := range g.N {
		d := tree.Dist[v]
		switch {
		case want[v] != paths.Unreachable && want[v] <= cutoff && d != want[v]:
			t.Fatalf("%s: source %d: distance to %d is %d, want %d (cutoff %d)", label, tree.Source, v, d, want[v], cutoff)
		case d != paths.Unreachable && d != want[v]:
			t.Fatalf("%s: source %d: distance to %d beyond the cutoff %d is %d, want %d or unreachable", label, tree.Source, v, cutoff, d, want[v])
		}
		if d != paths.Unreachable && v != tree.Source {
			if path := tree.To(v); len(path) == 0 || path[0] != tree.Source {
				t.Fatalf("%s: source %d: parents of %d lead to %v", label, tree.Source, v, path)
			}
		}
	}
}

// TestRunMaxDistance runs every algorithm with cutoffs at 0 and at random
// distances of each graph without negative cycles, with whole rows and
// with sparse ones (backend.Request.CutoffCells), which Dijkstra and
// Johnson without negative weights give: exactly the cells within the
// cutoff, with the whole rows' distances and parents.
func TestRunMaxDistance(t *testing.T) {
	r := rand.New(rand.NewPCG(rand.Uint64(), 11))
	for _, tg := range shortesttest.Graphs(t) {
		e := tg.Edges
		want, negative := shortesttest.AllPairs(e)
		if negative || e.N == 0 {
			continue
		}
		g := graph.BuildCSR(e)
		var finite []int64
		for _, row := range want {
			for _, d := range row {
				if d != paths.Unreachable {
					finite = append(finite, d)
				}
			}
		}
		cutoffs := []int64{0}
		for range 3 {
			cutoffs = append(cutoffs, finite[r.IntN(len(finite))])
		}
		for _, name := range append(searchAlgorithms, backend.AlgorithmFloydWarshall) {
			if name == backend.AlgorithmDijkstra && e.HasNegativeWeight() {
				continue
			}
			for _, cutoff := range cutoffs {
				req, err := requestFor(e, backend.Algorithm{Name: name}, allSources(e.N), true)
				if err != nil {
					t.Fatal(err)
				}
				req.MaxDistance = cutoff
				b := New(2)
				b.blockValues = 4 * int(e.N)
				trees, err := collect(context.Background(), t, b, req)
				if err != nil {
					t.Fatalf("%s, %s, cutoff %d: %v", tg.Name, name, cutoff, err)
				}
				for _, tree := range trees {
					checkCutoffTree(t, tg.Name+", "+name, g, tree, want[tree.Source], cutoff)
				}
				req.CutoffCells = true
				cells, sparse, err := collectCells(context.Background(), t, b, req)
				if err != nil {
					t.Fatalf("%s, %s, cutoff %d, sparse: %v", tg.Name, name, cutoff, err)
				}
				if hasCells := name == backend.AlgorithmDijkstra || name == backend.AlgorithmJohnson && !e.HasNegativeWeight(); sparse != hasCells {
					t.Errorf("%s, %s: sparse blocks %v, want %v", tg.Name, name, sparse, hasCells)
				}
				for i, tree := range cells {
					checkCutoffTree(t, tg.Name+", "+name+", sparse", g, tree, want[tree.Source], cutoff)
					for v, d := range tree.Dist {
						if sparse && (d == paths.Unreachable) != (want[tree.Source][v] == paths.Unreachable || want[tree.Source][v] > cutoff) {
							t.Fatalf("%s, %s, source %d: sparse row has %d at %d, want exactly the cells within %d", tg.Name, name, tree.Source, d, v, cutoff)
						}
						if sparse && d != paths.Unreachable && tree.Parent[v] != trees[i].Parent[v] {
							t.Fatalf("%s, %s, source %d: sparse row's parent of %d differs from the whole row's", tg.Name, name, tree.Source, v)
						}
					}
				}
			}
		}
	}
}

// TestRunMaxDistancePrunes checks that the searches do stop near the
// cutoff on a long path, and that Bellman-Ford and Johnson still find a
// vertex within the cutoff whose shortest path leaves it on the way.
func TestRunMaxDistancePrunes(t *testing.T) {
	const n, cutoff = 12, 3
	path := graph.NewEdgeList(n+2, n)
	for v := range int32(n - 1) {
		path.Add(v, v+1, 1)
	}
	// An arc apart from the path, so that Johnson reweights.
	negative := graph.NewEdgeList(n+2, n)
	negative.Src = append(append(negative.Src, path.Src...), n+1)
	negative.Dst = append(append(negative.Dst, path.Dst...), n)
	negative.Weight = append(append(negative.Weight, path.Weight...), -1)
	for _, c := range []struct {
		name string
		e    *graph.EdgeList
	}{
		{backend.AlgorithmDijkstra, path},
		{backend.AlgorithmBellmanFord, path},
		{backend.AlgorithmJohnson, path},
		{backend.AlgorithmJohnson, negative},
	} {
		req, err := requestFor(c.e, backend.Algorithm{Name: c.name}, []int32{0}, true)
		if err != nil {
			t.Fatal(err)
		}
		req.MaxDistance = cutoff
		trees, err := collect(context.Background(), t, New(1), req)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := shortesttest.BellmanFord(c.e, 0)
		checkCutoffTree(t, c.name, graph.BuildCSR(c.e), trees[0], want, cutoff)
		// Each search settles at most a vertex or two past the cutoff.
		for v := cutoff + 3; v < n; v++ {
			if trees[0].Reachable(int32(v)) {
				t.Errorf("%s (negative weights %t): vertex %d at distance %d reported with cutoff %d", c.name, c.e.HasNegativeWeight(), v, trees[0].Dist[v], cutoff)
			}
		}
	}

	// 0 -> 1 -> 2 weighs 10 - 9 = 1: vertex 2 lies within the cutoff, but
	// the path to it leaves it at vertex 1.
	detour := shortesttest.Edges(3, [3]int32{0, 1, 10}, [3]int32{1, 2, -9})
	for _, name := range []string{backend.AlgorithmBellmanFord, backend.AlgorithmJohnson} {
		req, err := requestFor(detour, backend.Algorithm{Name: name}, []int32{0}, false)
		if err != nil {
			t.Fatal(err)
		}
		req.MaxDistance = cutoff
		trees, err := collect(context.Background(), t, New(1), req)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if d := trees[0].Dist[2]; d != 1 {
			t.Errorf("%s: distance to 2 is %d, want 1", name, d)
		}
	}
}
