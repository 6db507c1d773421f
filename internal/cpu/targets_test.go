package cpu

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
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

// narrowedRows runs req on b and returns each row's cells (distances and
// parents, in column order), checking every block against the request
// (width or ragged offsets) and that no row comes twice on the way.
func narrowedRows(t *testing.T, b *Backend, req backend.Request) (dist [][]int64, parent [][]int32, err error) {
	t.Helper()
	dist, parent = make([][]int64, len(req.Sources)), make([][]int32, len(req.Sources))
	seen := make([]bool, len(req.Sources))
	var mu sync.Mutex
	err = b.Run(context.Background(), req, func(rows *results.Rows) error {
		defer rows.Release()
		if err := req.CheckRows(rows); err != nil {
			t.Error(err)
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		for i := range rows.Len() {
			lo, hi := rows.Span(i)
			row := rows.First + i
			if seen[row] {
				t.Errorf("row %d handed over twice", row)
			}
			seen[row] = true
			for j := range hi - lo {
				dist[row] = append(dist[row], rows.Distances().Weight(lo+j))
			}
			if rows.Parent != nil {
				parent[row] = append([]int32{}, rows.Parent[lo:hi]...)
			}
		}
		return nil
	})
	return dist, parent, err
}

// randomTargets picks count vertices of 0..n-1, repeats allowed, with the
// source s among them when s >= 0.
func randomTargets(r *rand.Rand, n int32, count int, s int32) []int32 {
	out := make([]int32, count)
	for j := range out {
		out[j] = r.Int32N(n)
	}
	if s >= 0 && count > 0 {
		out[r.IntN(count)] = s
	}
	return out
}

// checkNarrowed compares each narrowed row with the full row of the same
// request without targets: every distance and every parent equal, so a
// narrowed result writes the bytes of a full one.
func checkNarrowed(t *testing.T, label string, full []*paths.Tree, targets func(i int) []int32, dist [][]int64, parent [][]int32, withParents bool) {
	t.Helper()
	for i, tree := range full {
		ts := targets(i)
		if len(dist[i]) != len(ts) {
			t.Fatalf("%s: row %d has %d cells for %d targets", label, i, len(dist[i]), len(ts))
		}
		for j, v := range ts {
			if dist[i][j] != tree.Dist[v] {
				t.Fatalf("%s: source %d, target %d: distance %d, the full row says %d", label, tree.Source, v, dist[i][j], tree.Dist[v])
			}
			if withParents && parent[i][j] != tree.Parent[v] {
				t.Fatalf("%s: source %d, target %d: parent %d, the full row says %d", label, tree.Source, v, parent[i][j], tree.Parent[v])
			}
		}
	}
}

// narrowingCutoffs are the cutoffs a narrowed run is checked at: none, 0
// (only each source itself), one inside the distances, and one beyond
// every eccentricity.
func narrowingCutoffs(r *rand.Rand) []int64 {
	return []int64{results.NoCutoff, 0, 1 + r.Int64N(200), 1 << 50}
}

// testNarrowing runs every algorithm on e with shared targets and with
// per-source targets, and compares both with the full rows.
func testNarrowing(t *testing.T, name string, e *graph.EdgeList, r *rand.Rand, algs []backend.Algorithm) {
	if e.N == 0 {
		return
	}
	b := New(2)
	b.blockValues = 64 // many blocks, ragged ones of several rows
	sources := shortesttest.Sources(r, e.N)
	sources = sampleSources(r, e.N, len(sources))
	shared := randomTargets(r, e.N, 1+r.IntN(int(e.N)+3), sources[0])
	perSource := make([][]int32, len(sources))
	for i, s := range sources {
		perSource[i] = randomTargets(r, e.N, r.IntN(6)+1, s)
	}
	// An unreachable target where the graph has one.
	g := graph.BuildCSR(e)
	for v := range e.N {
		if !shortesttest.Reachable(g, sources[0], v) {
			perSource[0] = append(perSource[0], v)
			shared = append(shared, v)
			break
		}
	}
	for _, alg := range algs {
		for _, cutoff := range narrowingCutoffs(r) {
			label := fmt.Sprintf("%s/%s-%s/cutoff %d", name, alg.Name, alg.Variant, cutoff)
			req, err := requestFor(e, alg, sources, true)
			if err != nil {
				if alg.Name != backend.AlgorithmDijkstra || !errors.Is(err, shortest.ErrNegativeWeight) {
					t.Fatalf("%s: %v", label, err)
				}
				continue
			}
			req.MaxDistance = cutoff
			full, fullErr := collect(context.Background(), t, b, req)
			var cycle *shortest.NegativeCycleError
			for _, per := range []bool{false, true} {
				narrowed := req
				targets := func(int) []int32 { return shared }
				if per {
					narrowed.SourceTargets = perSource
					targets = func(i int) []int32 { return perSource[i] }
				} else {
					narrowed.Targets = shared
				}
				dist, parent, err := narrowedRows(t, b, narrowed)
				switch {
				case errors.As(fullErr, &cycle):
					if !errors.As(err, &cycle) {
						t.Fatalf("%s: negative cycle: %v, want a *NegativeCycleError", label, err)
					}
					continue
				case fullErr != nil:
					t.Fatalf("%s: full rows: %v", label, fullErr)
				case err != nil:
					t.Fatalf("%s, per source %t: %v", label, per, err)
				}
				checkNarrowed(t, fmt.Sprintf("%s, per source %t", label, per), full, targets, dist, parent, true)
			}
		}
	}
}

// Rows narrowed to targets, shared or per source, equal the full rows at
// those targets, parents included, for every algorithm, on the shared
// table of graphs, at every kind of cutoff.
func TestRunTargetsEqualFullRows(t *testing.T) {
	seed := shortesttest.FreshSeed(t)
	r := rand.New(rand.NewPCG(seed, 11))
	for _, g := range shortesttest.Graphs(t) {
		testNarrowing(t, g.Name, g.Edges, r, cpuAlgorithms)
	}
}

// The same on rome99 (a real road network) and on a 64 x 64 grid, where
// stopping at the last target saves most of every search.
func TestRunTargetsOnRoadsAndGrid(t *testing.T) {
	seed := shortesttest.FreshSeed(t)
	r := rand.New(rand.NewPCG(seed, 13))
	searches := []backend.Algorithm{{Name: backend.AlgorithmDijkstra}, {Name: backend.AlgorithmBellmanFord}, {Name: backend.AlgorithmJohnson}}
	testNarrowing(t, "rome99", readDIMACS(t, "rome99.gr"), r, searches)
	grid, err := generate.Grid(64, 1, 1000, r.Uint64())
	if err != nil {
		t.Fatal(err)
	}
	testNarrowing(t, "grid 64", grid, r, searches)
}

// A request with targets out of range, or both kinds of targets, fails
// before any block.
func TestRunRejectsBadTargets(t *testing.T) {
	e := shortesttest.Edges(3, [3]int32{0, 1, 1}, [3]int32{1, 2, 1})
	for name, edit := range map[string]func(*backend.Request){
		"target too large":       func(r *backend.Request) { r.Targets = []int32{0, 3} },
		"negative target":        func(r *backend.Request) { r.SourceTargets = [][]int32{{-1}} },
		"both kinds":             func(r *backend.Request) { r.Targets, r.SourceTargets = []int32{0}, [][]int32{{1}} },
		"target lists too short": func(r *backend.Request) { r.SourceTargets = [][]int32{} },
	} {
		for _, alg := range []backend.Algorithm{{Name: backend.AlgorithmDijkstra}, {Name: backend.AlgorithmFloydWarshall}} {
			req, err := requestFor(e, alg, []int32{0}, true)
			if err != nil {
				t.Fatal(err)
			}
			edit(&req)
			calls := 0
			err = New(1).Run(context.Background(), req, func(rows *results.Rows) error { calls++; rows.Release(); return nil })
			if err == nil || calls > 0 {
				t.Errorf("%s, %s: err %v after %d blocks, want an error and none", name, alg.Name, err, calls)
			}
		}
	}
}
