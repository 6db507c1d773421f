package cpu

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/generate"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/internal/shortest"
	"github.com/pathflow/pathflow/internal/shortest/shortesttest"
)

// problemOf describes a run of alg from sources on e as the pipeline does.
func problemOf(e *graph.EdgeList, alg backend.Algorithm, sources []int32, parents bool) backend.Problem {
	lo, hi := e.WeightRange()
	return backend.Problem{
		N: e.N, M: int64(e.M()), MinWeight: lo, MaxWeight: hi,
		Sources: len(sources), AllSources: len(sources) == int(e.N),
		Algorithm: alg,
	}
}

// requestFor builds the request of alg on e for sources, with the choice
// Choose makes for it.
func requestFor(e *graph.EdgeList, alg backend.Algorithm, sources []int32, parents bool) (backend.Request, error) {
	c, err := Choose(problemOf(e, alg, sources, parents))
	if err != nil {
		return backend.Request{}, err
	}
	return backend.Request{
		Shape: results.Shape{Sources: sources, Columns: results.ColumnsOf().With(results.Parent, parents), MaxDistance: results.NoCutoff},
		Edges: e, CSR: graph.BuildCSR(e), Choice: c,
	}, nil
}

// collect runs req on b and returns one tree per source, in request order;
// after an error, rows never handed over are nil. It checks every block on
// the way: Request.CheckRows, the distance type the choice announced, and that no
// row arrives twice.
func collect(ctx context.Context, t *testing.T, b *Backend, req backend.Request) ([]*paths.Tree, error) {
	t.Helper()
	trees := make([]*paths.Tree, len(req.Sources))
	var mu sync.Mutex
	err := b.Run(ctx, req, func(rows *results.Rows) error {
		defer rows.Release()
		if err := req.CheckRows(rows); err != nil {
			t.Error(err)
			return err
		}
		if (rows.Dist64 != nil) != req.Choice.Int64 {
			t.Errorf("block at row %d: int64 distances %t, the choice says %t", rows.First, rows.Dist64 != nil, req.Choice.Int64)
		}
		mu.Lock()
		defer mu.Unlock()
		for i := range rows.Len() {
			if trees[rows.First+i] != nil {
				t.Errorf("row %d handed over twice", rows.First+i)
			}
			trees[rows.First+i] = rows.Tree(i).Copy()
		}
		return nil
	})
	return trees, err
}

// allSources lists 0..n-1.
func allSources(n int32) []int32 {
	out := make([]int32, n)
	for i := range out {
		out[i] = int32(i)
	}
	return out
}

// runMatrix runs alg from every vertex of e, in a random order, through Run
// on a backend with small blocks, and assembles the rows into an int64
// matrix.
func runMatrix(t *testing.T, r *rand.Rand, workers int, alg backend.Algorithm) func(ctx context.Context, e *graph.EdgeList, withParents bool) (*paths.Matrix, error) {
	return func(ctx context.Context, e *graph.EdgeList, withParents bool) (*paths.Matrix, error) {
		sources := allSources(e.N)
		if withParents { // in order without parents: large blocks and views
			r.Shuffle(len(sources), func(i, j int) { sources[i], sources[j] = sources[j], sources[i] })
		}
		req, err := requestFor(e, alg, sources, withParents)
		if err != nil {
			return nil, err
		}
		b := New(workers)
		b.blockValues = 64
		trees, err := collect(ctx, t, b, req)
		if err != nil {
			return nil, err
		}
		n := int(e.N)
		m := &paths.Matrix{N: e.N, Dist64: make([]int64, n*n)}
		if withParents {
			m.Parent = make([]int32, n*n)
		}
		for i, tree := range trees {
			if tree == nil || tree.Source != sources[i] {
				return nil, fmt.Errorf("row %d: tree %v for source %d", i, tree, sources[i])
			}
			s := int(tree.Source)
			copy(m.Dist64[s*n:(s+1)*n], tree.Dist)
			if withParents {
				copy(m.Parent[s*n:(s+1)*n], tree.Parent)
			}
		}
		return m, nil
	}
}

func TestBackendIdentity(t *testing.T) {
	b := New(0)
	if b.Name() != "cpu" || b.Workers() != runtime.GOMAXPROCS(0) || !strings.Contains(b.Device(), "CPU") {
		t.Errorf("name %q, workers %d, device %q", b.Name(), b.Workers(), b.Device())
	}
	if New(3).Workers() != 3 {
		t.Error("New(3) does not run 3 workers")
	}
	if err := b.Close(); err != nil {
		t.Error(err)
	}
}

// TestRunAllPairs runs every algorithm from every vertex through Run on the
// shared graphs, against the reference and gonum.
func TestRunAllPairs(t *testing.T) {
	r := rand.New(rand.NewPCG(rand.Uint64(), 9))
	var algs []shortesttest.AllPairsAlgorithm
	for _, a := range []struct {
		alg             backend.Algorithm
		workers         int
		nonNegativeOnly bool
	}{
		{alg: backend.Algorithm{Name: backend.AlgorithmAuto}, workers: 2},
		{alg: backend.Algorithm{Name: backend.AlgorithmFloydWarshall}, workers: 2},
		{alg: backend.Algorithm{Name: backend.AlgorithmFloydWarshall, Variant: VariantBlocked, TileEdge: 4}, workers: 3},
		{alg: backend.Algorithm{Name: backend.AlgorithmFloydWarshall, Variant: VariantNaive}, workers: 1},
		{alg: backend.Algorithm{Name: backend.AlgorithmJohnson}, workers: 1},
		{alg: backend.Algorithm{Name: backend.AlgorithmJohnson}, workers: 3},
		{alg: backend.Algorithm{Name: backend.AlgorithmBellmanFord}, workers: 2},
		{alg: backend.Algorithm{Name: backend.AlgorithmDijkstra}, workers: 2, nonNegativeOnly: true},
	} {
		algs = append(algs, shortesttest.AllPairsAlgorithm{
			Name:            fmt.Sprintf("%s %s, %d workers", a.alg.Name, a.alg.Variant, a.workers),
			NonNegativeOnly: a.nonNegativeOnly,
			Run:             runMatrix(t, r, a.workers, a.alg),
		})
	}
	shortesttest.TestAllPairs(t, algs, shortest.ErrNegativeWeight)
}

// TestRunSources runs the searches from random distinct sources in random
// order, with several worker counts and block sizes, and checks every row
// against the reference. A negative cycle reachable from a source stops
// Bellman-Ford, any negative cycle stops Johnson; rows handed over before
// are still checked.
func TestRunSources(t *testing.T) {
	r := rand.New(rand.NewPCG(rand.Uint64(), 4))
	for _, tg := range shortesttest.Graphs(t) {
		e := tg.Edges
		if e.N == 0 {
			continue
		}
		g := graph.BuildCSR(e)
		_, anyCycle := shortesttest.AllPairs(e)
		perm := r.Perm(int(e.N))
		sources := make([]int32, 1+r.IntN(int(e.N)))
		for i := range sources {
			sources[i] = int32(perm[i])
		}
		for _, workers := range []int{1, 2, 5} {
			for _, name := range []string{backend.AlgorithmAuto, backend.AlgorithmSSSP, backend.AlgorithmDijkstra, backend.AlgorithmBellmanFord, backend.AlgorithmJohnson} {
				label := fmt.Sprintf("%s, %s, %d workers", tg.Name, name, workers)
				req, err := requestFor(e, backend.Algorithm{Name: name}, sources, workers != 2)
				if name == backend.AlgorithmDijkstra && e.HasNegativeWeight() {
					if !errors.Is(err, shortest.ErrNegativeWeight) || !errors.Is(err, backend.ErrUnsupported) {
						t.Fatalf("%s: Choose gave %v, want ErrNegativeWeight and ErrUnsupported", label, err)
					}
					continue
				}
				if err != nil {
					t.Fatalf("%s: %v", label, err)
				}
				if req.Choice.AllPairs {
					continue // auto picked Floyd-Warshall: TestRunAllPairs
				}
				b := New(workers)
				b.blockValues = int(e.N) * (1 + r.IntN(4))
				trees, err := collect(context.Background(), t, b, req)
				if err != nil {
					shortesttest.CheckNegativeCycle(t, e, err)
					var nc *shortest.NegativeCycleError
					errors.As(err, &nc)
					if req.Choice.Algorithm.Name == backend.AlgorithmBellmanFord && !reachableFromAny(g, sources, nc.Vertex) {
						t.Fatalf("%s: cycle through %d is not reachable from the sources", label, nc.Vertex)
					}
				} else if req.Choice.Algorithm.Name == backend.AlgorithmJohnson && anyCycle {
					t.Fatalf("%s: no error on a graph with a negative cycle", label)
				}
				for i, tree := range trees {
					if tree == nil {
						if err == nil {
							t.Fatalf("%s: row %d missing", label, i)
						}
						continue
					}
					want, negative := shortesttest.BellmanFord(e, tree.Source)
					if negative {
						t.Fatalf("%s: row from %d handed over despite a reachable negative cycle", label, tree.Source)
					}
					if (tree.Parent != nil) != req.Wants(results.Parent) {
						t.Fatalf("%s: asked for parents: %v, got them: %v", label, req.Wants(results.Parent), tree.Parent != nil)
					}
					shortesttest.CheckTree(t, e, g, tree, want)
				}
			}
		}
	}
}

// reachableFromAny reports whether some source reaches v.
func reachableFromAny(g *graph.CSR, sources []int32, v int32) bool {
	for _, s := range sources {
		if shortesttest.Reachable(g, s, v) {
			return true
		}
	}
	return false
}

// TestRunBlocks checks how rows are cut into blocks: consecutive sources
// in batches of blockValues/n rows for searches, and for Floyd-Warshall
// views of runs of consecutive vertices, each block's rows equal to the
// reference.
func TestRunBlocks(t *testing.T) {
	e, err := generate.Grid(4, 1, 9, 1) // 16 vertices
	if err != nil {
		t.Fatal(err)
	}
	want, _ := shortesttest.AllPairs(e)
	sources := []int32{3, 4, 5, 9, 0, 1, 2, 7, 15, 14}
	type span struct{ first, rows int }
	for _, c := range []struct {
		alg     backend.Algorithm
		workers int
		// rows per block by blockValues: 2*16 values
		want []span
	}{
		// Batches of 2 (the block size) from the first source on.
		{backend.Algorithm{Name: backend.AlgorithmDijkstra}, 2, []span{{0, 2}, {2, 2}, {4, 2}, {6, 2}, {8, 2}}},
		{backend.Algorithm{Name: backend.AlgorithmBellmanFord}, 3, []span{{0, 2}, {2, 2}, {4, 2}, {6, 2}, {8, 2}}},
		// Runs of consecutive vertices, at most 2 rows each.
		{backend.Algorithm{Name: backend.AlgorithmFloydWarshall}, 2, []span{{0, 2}, {2, 1}, {3, 1}, {4, 2}, {6, 1}, {7, 1}, {8, 1}, {9, 1}}},
	} {
		req, err := requestFor(e, c.alg, sources, true)
		if err != nil {
			t.Fatal(err)
		}
		b := New(c.workers)
		b.blockValues = 2 * int(e.N)
		var mu sync.Mutex
		got := map[span]bool{}
		err = b.Run(context.Background(), req, func(rows *results.Rows) error {
			defer rows.Release()
			if err := req.CheckRows(rows); err != nil {
				t.Error(err)
				return nil
			}
			for i := range rows.Len() {
				tree := rows.Tree(i).Copy()
				for v := range e.N {
					if tree.Dist[v] != want[tree.Source][v] {
						t.Errorf("%s: row %d: distance %d -> %d is %d, want %d", c.alg.Name, rows.First+i, tree.Source, v, tree.Dist[v], want[tree.Source][v])
					}
				}
			}
			mu.Lock()
			got[span{rows.First, rows.Len()}] = true
			mu.Unlock()
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(c.want) {
			t.Errorf("%s: blocks %v, want %v", c.alg.Name, got, c.want)
		}
		for _, s := range c.want {
			if !got[s] {
				t.Errorf("%s: no block of %d rows at %d; got %v", c.alg.Name, s.rows, s.first, got)
			}
		}
	}
	// With few sources every worker still gets a block.
	req, err := requestFor(e, backend.Algorithm{Name: backend.AlgorithmDijkstra}, sources[:4], false)
	if err != nil {
		t.Fatal(err)
	}
	blocks := 0
	var mu sync.Mutex
	err = New(2).Run(context.Background(), req, func(rows *results.Rows) error {
		mu.Lock()
		blocks++
		mu.Unlock()
		rows.Release()
		return nil
	})
	if err != nil || blocks != 2 {
		t.Errorf("4 sources on 2 workers: %d blocks, %v; want 2", blocks, err)
	}
}

// TestRunRejects checks that invalid requests give errors, of the right
// kind where it matters, before anything reaches the sink.
func TestRunRejects(t *testing.T) {
	e := shortesttest.Edges(3, [3]int32{0, 1, 1}, [3]int32{1, 2, 1})
	neg := shortesttest.Edges(3, [3]int32{0, 1, -1})
	valid := func(alg backend.Algorithm, e *graph.EdgeList) backend.Request {
		req, err := requestFor(e, alg, []int32{0, 2}, false)
		if err != nil {
			t.Fatal(err)
		}
		return req
	}
	dijkstra := backend.Algorithm{Name: backend.AlgorithmDijkstra}
	fw := backend.Algorithm{Name: backend.AlgorithmFloydWarshall}
	with := func(req backend.Request, change func(*backend.Request)) backend.Request {
		change(&req)
		return req
	}
	for _, c := range []struct {
		name        string
		req         backend.Request
		unsupported bool
		is          error
	}{
		{"auto", with(valid(dijkstra, e), func(r *backend.Request) { r.Choice.Algorithm.Name = backend.AlgorithmAuto }), true, nil},
		{"sssp", with(valid(dijkstra, e), func(r *backend.Request) { r.Choice.Algorithm.Name = backend.AlgorithmSSSP }), true, nil},
		{"no algorithm", with(valid(dijkstra, e), func(r *backend.Request) { r.Choice.Algorithm.Name = "" }), true, nil},
		{"unknown algorithm", with(valid(dijkstra, e), func(r *backend.Request) { r.Choice.Algorithm.Name = "bfs" }), true, nil},
		{"dijkstra variant", with(valid(dijkstra, e), func(r *backend.Request) { r.Choice.Algorithm.Variant = VariantBlocked }), true, nil},
		{"johnson block size", with(valid(backend.Algorithm{Name: backend.AlgorithmJohnson}, e), func(r *backend.Request) { r.Choice.Algorithm.TileEdge = 8 }), true, nil},
		{"unknown variant", with(valid(fw, e), func(r *backend.Request) { r.Choice.Algorithm.Variant = "recursive" }), true, nil},
		{"negative block size", with(valid(fw, e), func(r *backend.Request) { r.Choice.Algorithm.TileEdge = -2 }), true, nil},
		{"naive block size", with(valid(backend.Algorithm{Name: backend.AlgorithmFloydWarshall, Variant: VariantNaive}, e), func(r *backend.Request) { r.Choice.Algorithm.TileEdge = 4 }), true, nil},
		{"dijkstra, negative weight", with(valid(dijkstra, e), func(r *backend.Request) { r.Edges, r.CSR = neg, graph.BuildCSR(neg) }), false, shortest.ErrNegativeWeight},
		{"source outside", with(valid(dijkstra, e), func(r *backend.Request) { r.Sources = []int32{0, 3} }), false, nil},
		{"negative source", with(valid(fw, e), func(r *backend.Request) { r.Sources = []int32{-1} }), false, nil},
		{"repeated source", with(valid(dijkstra, e), func(r *backend.Request) { r.Sources = []int32{2, 0, 2} }), false, nil},
		{"repeated source, floyd-warshall", with(valid(fw, e), func(r *backend.Request) { r.Sources = []int32{1, 1} }), false, nil},
		{"no graph", with(valid(dijkstra, e), func(r *backend.Request) { r.Edges, r.CSR = nil, nil }), false, nil},
		{"no graph, floyd-warshall", with(valid(fw, e), func(r *backend.Request) { r.Edges, r.CSR = nil, nil }), false, nil},
		{"graphs differ", with(valid(dijkstra, e), func(r *backend.Request) { r.CSR = graph.BuildCSR(neg) }), false, nil},
		{"ragged arcs", with(valid(fw, e), func(r *backend.Request) { r.Edges, r.CSR = &graph.EdgeList{N: 3, Src: []int32{0}}, nil }), false, nil},
		{"int32 searches", with(valid(dijkstra, e), func(r *backend.Request) { r.Choice.Int64 = false }), false, nil},
		{"int64 floyd-warshall on a small graph", with(valid(fw, e), func(r *backend.Request) { r.Choice.Int64 = true }), false, nil},
	} {
		err := New(2).Run(context.Background(), c.req, func(rows *results.Rows) error {
			t.Errorf("%s: a block reached the sink", c.name)
			rows.Release()
			return nil
		})
		switch {
		case err == nil:
			t.Errorf("%s: no error", c.name)
		case c.unsupported != errors.Is(err, backend.ErrUnsupported):
			t.Errorf("%s: %v; wraps ErrUnsupported: %t, want %t", c.name, err, !c.unsupported, c.unsupported)
		case c.is != nil && !errors.Is(err, c.is):
			t.Errorf("%s: %v, want %v", c.name, err, c.is)
		}
	}
}

// TestRunGraphForms checks that a request with only one form of the graph
// gives the same rows as one with both.
func TestRunGraphForms(t *testing.T) {
	e := shortesttest.Edges(4, [3]int32{0, 1, 2}, [3]int32{1, 2, -1}, [3]int32{0, 2, 3}, [3]int32{2, 3, 1})
	for _, name := range []string{backend.AlgorithmBellmanFord, backend.AlgorithmJohnson, backend.AlgorithmFloydWarshall} {
		req, err := requestFor(e, backend.Algorithm{Name: name}, []int32{0, 1}, true)
		if err != nil {
			t.Fatal(err)
		}
		both, err := collect(context.Background(), t, New(1), req)
		if err != nil {
			t.Fatal(err)
		}
		for _, form := range []func(*backend.Request){
			func(r *backend.Request) { r.CSR = nil },
			func(r *backend.Request) { r.Edges = nil },
		} {
			one := req
			form(&one)
			got, err := collect(context.Background(), t, New(1), one)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for i := range got {
				if fmt.Sprint(got[i]) != fmt.Sprint(both[i]) {
					t.Fatalf("%s: row %d is %v with one graph form, %v with both", name, i, got[i], both[i])
				}
			}
		}
	}
}

func TestRunNoSources(t *testing.T) {
	e := shortesttest.Edges(3, [3]int32{0, 1, -1}, [3]int32{1, 0, -1}) // a negative cycle
	for _, name := range []string{backend.AlgorithmBellmanFord, backend.AlgorithmJohnson, backend.AlgorithmFloydWarshall} {
		req, err := requestFor(e, backend.Algorithm{Name: name}, nil, false)
		if err != nil {
			t.Fatal(err)
		}
		if trees, err := collect(context.Background(), t, New(2), req); err != nil || len(trees) != 0 {
			t.Errorf("%s without sources: %d rows, %v", name, len(trees), err)
		}
	}
}
