package cpu

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/generate"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/graph/graphtest"
	"github.com/pathflow/pathflow/internal/hierarchy"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/internal/shortest"
	"github.com/pathflow/pathflow/internal/shortest/shortesttest"
)

// chCells is what a ch run handed over: each row's distances and parents
// (nil without), over the row's columns, and the facts it reported.
type chCells struct {
	dist   [][]int64
	parent [][]int32
	facts  map[string]any
}

// runCH runs req with the ch algorithm on b, checking every block as
// narrowedRows does, and returns the cells by row and the facts reported.
func runCH(t *testing.T, b *Backend, req backend.Request) (*chCells, error) {
	t.Helper()
	out := &chCells{facts: map[string]any{}}
	var mu sync.Mutex
	req.Facts = func(key string, value any) {
		mu.Lock()
		defer mu.Unlock()
		out.facts[key] = value
	}
	var err error
	out.dist, out.parent, err = narrowedRows(t, b, req)
	return out, err
}

// chShape is how a ch request narrows its rows.
type chShape int

const (
	chWhole chShape = iota
	chTargets
	chPairs
)

func (s chShape) String() string {
	return [...]string{"whole rows", "targets", "per-source targets"}[s]
}

// checkCH runs the ch algorithm on e from sources, in the given shape,
// with and without parents, without a cutoff and with one, and compares
// every cell with Dijkstra's full rows; every parent must close a tight
// arc of the original graph (dist[t] == dist[parent] + w(parent, t)).
func checkCH(t *testing.T, name string, e *graph.EdgeList, sources []int32, r *rand.Rand) {
	t.Helper()
	g := graph.BuildCSR(e)
	refs := make([][]int64, len(sources))
	for i, s := range sources {
		tree, err := shortest.Dijkstra(context.Background(), g, s, false)
		if err != nil {
			t.Fatal(err)
		}
		refs[i] = tree.Dist
	}
	// The cutoff: a distance from the middle of the first row.
	var reached []int64
	for _, d := range refs[0] {
		if d != paths.Unreachable {
			reached = append(reached, d)
		}
	}
	slices.Sort(reached)
	cutoff := reached[len(reached)/2]

	targets := sampleSources(r, e.N, 1+int(e.N)/7)
	r.Shuffle(len(targets), func(i, j int) { targets[i], targets[j] = targets[j], targets[i] })
	targets = append(targets, targets[0], sources[0]) // a repeat, and a source
	perSource := make([][]int32, len(sources))
	for i, s := range sources {
		for range r.IntN(12) {
			perSource[i] = append(perSource[i], r.Int32N(e.N))
		}
		if i%3 == 0 {
			perSource[i] = append(perSource[i], s)
		}
		if i%4 == 1 {
			perSource[i] = slices.Clone(targets) // long lists
		}
	}
	if len(sources) >= 40 {
		// A run of more than chGroupSources sources asking for one list.
		short := slices.Clone(targets[:5])
		for i := range 36 {
			perSource[i] = slices.Clone(short)
		}
	}
	for _, shape := range []chShape{chWhole, chTargets, chPairs} {
		for _, parents := range []bool{false, true} {
			for _, limit := range []int64{results.NoCutoff, cutoff} {
				req, err := requestFor(e, backend.Algorithm{Name: backend.AlgorithmCH}, sources, parents)
				if err != nil {
					t.Fatal(err)
				}
				req.MaxDistance = limit
				var columns func(int) []int32
				switch shape {
				case chWhole:
					columns = func(int) []int32 { return nil }
				case chTargets:
					req.Targets = targets
					columns = func(int) []int32 { return targets }
				case chPairs:
					req.SourceTargets = perSource
					columns = func(i int) []int32 { return perSource[i] }
				}
				// Small blocks and an odd worker count: many blocks, in
				// any order; or one worker, and blocks of many rows.
				workers := 3
				if limit >= 0 {
					workers = 1 // blocks as large as the cells allow
				}
				b := New(workers)
				b.blockValues = 1 + int(e.N)/3
				got, err := runCH(t, b, req)
				if err != nil {
					t.Fatalf("%s, %s, parents %t, cutoff %d: %v", name, shape, parents, limit, err)
				}
				for i, s := range sources {
					cols := columns(i)
					if shape == chWhole {
						cols = allSources(e.N)
					}
					if len(got.dist[i]) != len(cols) {
						t.Fatalf("%s, %s: row %d has %d cells, want %d", name, shape, i, len(got.dist[i]), len(cols))
					}
					for j, v := range cols {
						want := refs[i][v]
						if limit >= 0 && want > limit {
							want = paths.Unreachable
						}
						if d := got.dist[i][j]; d != want {
							t.Fatalf("%s, %s, parents %t, cutoff %d: %d -> %d is %d, want %d", name, shape, parents, limit, s, v, d, want)
						}
						if parents {
							checkCHParent(t, g, s, v, want, got.parent[i][j], refs[i])
						}
					}
					if parents && shape == chWhole && limit < 0 {
						tree := &paths.Tree{Source: s, Dist: got.dist[i], Parent: got.parent[i]}
						if err := paths.CheckTree(g, tree); err != nil {
							t.Fatalf("%s: tree from %d: %v", name, s, err)
						}
					}
				}
			}
		}
	}
}

// checkCHParent checks the parent p reported for the cell source -> v of
// distance d, dist being source's full row.
func checkCHParent(t *testing.T, g *graph.CSR, source, v int32, d int64, p int32, dist []int64) {
	t.Helper()
	if v == source || d == paths.Unreachable {
		if p != paths.NoParent {
			t.Fatalf("%d -> %d (distance %d) has parent %d, want none", source, v, d, p)
		}
		return
	}
	if p < 0 || p >= g.N {
		t.Fatalf("%d -> %d (distance %d) has parent %d", source, v, d, p)
	}
	for a := g.Offsets[p]; a < g.Offsets[p+1]; a++ {
		if g.Targets[a] == v && dist[p] != paths.Unreachable && dist[p]+int64(g.Weights[a]) == d {
			return
		}
	}
	t.Fatalf("%d -> %d: parent %d at distance %d closes no tight arc to distance %d", source, v, p, dist[p], d)
}

func TestCHRome99(t *testing.T) {
	e := readDIMACS(t, "rome99.gr")
	seed := shortesttest.FreshSeed(t)
	r := rand.New(rand.NewPCG(seed, 11))
	checkCH(t, "rome99", e, sampleSources(r, e.N, 40), r)
}

func TestCHRoadGraphs(t *testing.T) {
	seed := shortesttest.FreshSeed(t)
	r := rand.New(rand.NewPCG(seed, 12))
	for _, c := range []struct {
		side int32
		seed uint64
	}{{3, 1}, {30, 1}, {50, seed}} {
		e, _, err := generate.Road(c.side, c.seed)
		if err != nil {
			t.Fatal(err)
		}
		checkCH(t, generate.RoadSpec{Side: c.side, Seed: c.seed}.String(), e, sampleSources(r, e.N, 25), r)
	}
}

// TestCHZeroWeights covers what road graphs lack: arcs of weight zero
// (cycles of them too), one-way arcs, parallel arcs, self-loops and
// unreachable vertices.
func TestCHZeroWeights(t *testing.T) {
	seed := shortesttest.FreshSeed(t)
	r := rand.New(rand.NewPCG(seed, 13))
	for range 8 {
		n := int32(2 + r.IntN(150))
		e := graphtest.RandomGraph(r, n, r.IntN(4*int(n)), 0, 6, 0)
		for range int(n) / 2 {
			e.Add(r.Int32N(n), r.Int32N(n), 0)
		}
		checkCH(t, "random", e, sampleSources(r, n, 1+r.IntN(int(n))), r)
	}
}

func TestCHReportsItsHierarchy(t *testing.T) {
	e, _, err := generate.Road(20, 1)
	if err != nil {
		t.Fatal(err)
	}
	req, err := requestFor(e, backend.Algorithm{Name: backend.AlgorithmCH}, []int32{0, 5}, false)
	if err != nil {
		t.Fatal(err)
	}
	got, err := runCH(t, New(2), req)
	if err != nil {
		t.Fatal(err)
	}
	f, ok := got.facts[hierarchy.FactKey].(hierarchy.BuildFacts)
	if !ok {
		t.Fatalf("facts %v have no %q", got.facts, hierarchy.FactKey)
	}
	if f.BuildSeconds <= 0 || f.Shortcuts <= 0 || f.Rounds <= 0 {
		t.Errorf("hierarchy facts %+v", f)
	}
}

func TestCHRefusals(t *testing.T) {
	neg := shortesttest.Edges(3, [3]int32{0, 1, 4}, [3]int32{1, 2, -1})
	_, err := Choose(problemOf(neg, backend.Algorithm{Name: backend.AlgorithmCH}, []int32{0}, false))
	if !errors.Is(err, backend.ErrUnsupported) || !errors.Is(err, shortest.ErrNegativeWeight) {
		t.Errorf("choose ch with a negative weight: %v", err)
	}
	// Run refuses it too, with a choice made for another graph.
	pos := shortesttest.Edges(3, [3]int32{0, 1, 4}, [3]int32{1, 2, 1})
	req, err := requestFor(pos, backend.Algorithm{Name: backend.AlgorithmCH}, []int32{0}, false)
	if err != nil {
		t.Fatal(err)
	}
	sinkCalled := func(*results.Rows) error { t.Error("a refused request handed over a block"); return nil }
	bad := req
	bad.Edges, bad.CSR = neg, graph.BuildCSR(neg)
	if err := New(1).Run(context.Background(), bad, sinkCalled); !errors.Is(err, backend.ErrUnsupported) {
		t.Errorf("run ch with a negative weight: %v", err)
	}
	bad = req
	bad.Targets = []int32{3}
	if err := New(1).Run(context.Background(), bad, sinkCalled); err == nil {
		t.Error("a target outside the graph was accepted")
	}
	bad = req
	bad.SourceTargets = [][]int32{{1}, {2}}
	if err := New(1).Run(context.Background(), bad, sinkCalled); err == nil {
		t.Error("two target lists for one source were accepted")
	}
	_, err = Choose(problemOf(pos, backend.Algorithm{Name: backend.AlgorithmCH, Variant: "fast"}, []int32{0}, false))
	if !errors.Is(err, backend.ErrUnsupported) {
		t.Errorf("ch with a variant: %v", err)
	}
	// No sources: no block, and no hierarchy built.
	none := req
	none.Sources = nil
	got, err := runCH(t, New(1), none)
	if err != nil || len(got.facts) != 0 {
		t.Errorf("no sources: %v, facts %v", err, got.facts)
	}
}

// TestCHBlocksOfPerSourceTargets: sources with their own lists go at most
// chGroupSources to a block; a run of sources asking for one same list
// shares a block beyond that, up to the block's cells and the workers'
// share.
func TestCHBlocksOfPerSourceTargets(t *testing.T) {
	const count = 100
	same, mixed := make([][]int32, count), make([][]int32, count)
	for i := range count {
		same[i] = []int32{4, 1, 7}
		mixed[i] = []int32{int32(i % 5), 1, 7}
	}
	b := New(1)
	for _, tc := range []struct {
		name    string
		lists   [][]int32
		workers int
		block   int
		want    []int // rows per block
	}{
		{"one list", same, 1, 1 << 20, []int{100}},
		{"one list, two workers", same, 2, 1 << 20, []int{50, 50}},
		{"one list, small blocks", same, 1, 120, []int{40, 40, 20}},
		{"own lists", mixed, 1, 1 << 20, []int{32, 32, 32, 4}},
	} {
		b.blockValues = tc.block
		req := &backend.Request{Shape: results.Shape{Sources: allSources(count), SourceTargets: tc.lists}}
		var got []int
		for _, c := range b.chNarrowedChunks(req, tc.workers) {
			got = append(got, c.count)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: blocks of %v rows, want %v", tc.name, got, tc.want)
		}
	}
}

// Whole rows handed over in blocks smaller than a sweep (rows of one
// sweep copied into several blocks, by several workers) are the rows of
// blocks of whole sweeps, value for value, with parents; and a block holds
// no more rows than its budget allows.
func TestCHWholeRowsInAnyBlockSize(t *testing.T) {
	e, _, err := generate.Road(40, 3)
	if err != nil {
		t.Fatal(err)
	}
	n := int(e.N)
	r := rand.New(rand.NewPCG(shortesttest.FreshSeed(t), 14))
	sources := sampleSources(r, e.N, 29) // the last sweep is partial
	var want *chCells
	for _, tc := range []struct{ rowsPerBlock, workers int }{
		{64, 1}, // whole sweeps in a block: the reference
		{1, 1}, {1, 3}, {3, 2}, {5, 3}, {7, 4}, {8, 3},
	} {
		req, err := requestFor(e, backend.Algorithm{Name: backend.AlgorithmCH}, sources, true)
		if err != nil {
			t.Fatal(err)
		}
		b := New(tc.workers)
		b.blockValues = tc.rowsPerBlock * n
		most := 0
		var mu sync.Mutex
		got := &chCells{}
		got.dist, got.parent, err = narrowedRows(t, b, req)
		if err != nil {
			t.Fatal(err)
		}
		err = b.Run(context.Background(), req, func(rows *results.Rows) error {
			mu.Lock()
			most = max(most, rows.Len())
			mu.Unlock()
			rows.Release()
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if tc.rowsPerBlock < hierarchy.TreeLanes && most > tc.rowsPerBlock {
			t.Errorf("blocks of %d rows allowed: a block held %d", tc.rowsPerBlock, most)
		}
		if want == nil {
			want = got
			continue
		}
		for i := range sources {
			if !slices.Equal(got.dist[i], want.dist[i]) || !slices.Equal(got.parent[i], want.parent[i]) {
				t.Fatalf("%d rows a block, %d workers: row %d differs from whole sweeps' blocks", tc.rowsPerBlock, tc.workers, i)
			}
		}
	}
}

// TestCHTableParentIsNeverALoop: a target's parent in a ch table is its
// smallest tight in-neighbour other than itself. Target 1 has a loop of
// weight (and metric) 0, so 1 closes its own distance and is smaller than
// its parent, 2; the loop must not be taken, with and without a metric,
// with shared targets and with per-source lists.
func TestCHTableParentIsNeverALoop(t *testing.T) {
	e := graph.NewEdgeList(3, 3)
	for _, a := range [][3]int32{{0, 2, 1}, {2, 1, 1}, {1, 1, 0}} {
		e.Add(a[0], a[1], a[2])
	}
	e.Metric = []int32{5, 5, 0}
	for _, metric := range []bool{false, true} {
		choice, err := Choose(backend.Problem{N: e.N, M: int64(e.M()), MinWeight: 0, MaxWeight: 1, Sources: 1,
			Algorithm: backend.Algorithm{Name: "ch"}, Metric: metric})
		if err != nil {
			t.Fatal(err)
		}
		for _, lists := range []bool{false, true} {
			req := backend.Request{Shape: results.Shape{Sources: []int32{0}, MaxDistance: results.NoCutoff,
				Columns: results.ColumnsOf().With(results.Parent, true).With(results.Metric, metric)},
				Edges: e, CSR: graph.BuildCSR(e), Choice: choice}
			if lists {
				req.SourceTargets = [][]int32{{1}}
			} else {
				req.Targets = []int32{1}
			}
			var parent []int32
			err := New(1).Run(context.Background(), req, func(rows *results.Rows) error {
				defer rows.Release()
				parent = append(parent, rows.Parent...)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(parent, []int32{2}) {
				t.Errorf("metric %v, lists %v: parent of 1 %v, want [2]", metric, lists, parent)
			}
		}
	}
}

// TestCHTableParentsAreTheWholeRows checks, on random graphs with many
// arcs of weight 0 (and metric 0), that a ch table's parents, with shared
// targets and with per-source lists, with and without a metric, are the
// cells of the whole rows' parents: where a row's tight in-neighbours
// close a cycle the whole row is mended (paths.Repair), and a table must
// give its cells the mended row's parents, as the GPU does, not each
// target's smallest tight in-neighbour.
func TestCHTableParentsAreTheWholeRows(t *testing.T) {
	sources := []int32{0, 3, 7, 50, 149, 77, 12}
	for seed := range uint64(12) {
		r := rand.New(rand.NewPCG(seed, 5))
		e := graphtest.WithMetric(r, graphtest.RandomGraph(r, 150, 700, 0, 3, 0), 0, 2)
		targets := make([]int32, 40)
		for i := range targets {
			targets[i] = r.Int32N(e.N)
		}
		lists := make([][]int32, len(sources))
		for i := range lists {
			lists[i] = targets[i*5 : i*5+5]
		}
		for _, metric := range []bool{false, true} {
			parents := func(shape results.Shape) map[[2]int32]int32 {
				req, err := requestFor(e, backend.Algorithm{Name: "ch"}, sources, true)
				if err != nil {
					t.Fatal(err)
				}
				req.Targets, req.SourceTargets = shape.Targets, shape.SourceTargets
				req.Columns = req.Columns.With(results.Metric, metric)
				cells := map[[2]int32]int32{}
				var mu sync.Mutex
				err = New(2).Run(context.Background(), req, func(rows *results.Rows) error {
					defer rows.Release()
					mu.Lock()
					defer mu.Unlock()
					for i, s := range rows.Sources {
						lo, hi := rows.Span(i)
						asked := req.RowTargets(rows.First + i)
						for c := lo; c < hi; c++ {
							v := int32(c - lo)
							if asked != nil {
								v = asked[c-lo]
							}
							cells[[2]int32{s, v}] = rows.Parent[c]
						}
					}
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				return cells
			}
			whole := parents(results.Shape{})
			for name, shape := range map[string]results.Shape{"targets": {Targets: targets}, "lists": {SourceTargets: lists}} {
				for key, p := range parents(shape) {
					if want := whole[key]; p != want {
						t.Fatalf("seed %d, metric %v, %s: %d -> %d: parent %d, the whole row's %d", seed, metric, name, key[0], key[1], p, want)
					}
				}
			}
		}
	}
}
