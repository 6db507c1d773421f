package cpu

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
)

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

// TestBackendAllPairs runs every all-pairs algorithm name and variant
// through the Backend on the shared graphs.
func TestBackendAllPairs(t *testing.T) {
	var algs []allPairsAlgorithm
	for _, a := range []struct {
		alg             backend.Algorithm
		nonNegativeOnly bool
	}{
		{alg: backend.Algorithm{Name: AlgorithmAuto}},
		{alg: backend.Algorithm{Name: AlgorithmFloydWarshall}},
		{alg: backend.Algorithm{Name: AlgorithmFloydWarshall, Variant: VariantBlocked, BlockSize: 4}},
		{alg: backend.Algorithm{Name: AlgorithmFloydWarshall, Variant: VariantNaive}},
		{alg: backend.Algorithm{Name: AlgorithmJohnson}},
		{alg: backend.Algorithm{Name: AlgorithmDijkstra}, nonNegativeOnly: true},
	} {
		algs = append(algs, allPairsAlgorithm{
			name:            a.alg.Name + " " + a.alg.Variant,
			nonNegativeOnly: a.nonNegativeOnly,
			run: func(ctx context.Context, e *graph.EdgeList, withParents bool) (*paths.Matrix, error) {
				return New(2).AllPairs(ctx, e, a.alg, withParents)
			},
		})
	}
	testAllPairs(t, algs)
}

func TestBackendSingleSource(t *testing.T) {
	ctx := context.Background()
	b := New(2)
	for _, tg := range testGraphs(t) {
		e := tg.e
		if e.N == 0 {
			continue
		}
		g := graph.BuildCSR(e)
		s := e.N - 1
		want, negative := referenceBellmanFord(e, s)
		for _, name := range []string{AlgorithmAuto, AlgorithmBellmanFord, AlgorithmDijkstra} {
			tree, err := b.SingleSource(ctx, g, s, backend.Algorithm{Name: name}, true)
			switch {
			case name == AlgorithmDijkstra && e.HasNegativeWeight():
				if !errors.Is(err, ErrNegativeWeight) {
					t.Fatalf("%s, %s: got %v, want ErrNegativeWeight", tg.name, name, err)
				}
			case negative:
				checkNegativeCycle(t, e, err)
			case err != nil:
				t.Fatalf("%s, %s: %v", tg.name, name, err)
			default:
				checkTree(t, e, g, tree, want)
			}
		}
	}
}

func TestBackendRejects(t *testing.T) {
	ctx := context.Background()
	b := New(1)
	e := edges(3, [3]int32{0, 1, 1})
	g := graph.BuildCSR(e)
	for _, alg := range []backend.Algorithm{
		{Name: "bfs"},
		{Name: ""},
		{Name: AlgorithmFloydWarshall},
		{Name: AlgorithmJohnson},
		{Name: AlgorithmDijkstra, Variant: VariantBlocked},
		{Name: AlgorithmBellmanFord, BlockSize: 8},
	} {
		if _, err := b.SingleSource(ctx, g, 0, alg, false); err == nil {
			t.Errorf("single source with %+v: no error", alg)
		}
	}
	for _, alg := range []backend.Algorithm{
		{Name: "bfs"},
		{Name: AlgorithmBellmanFord},
		{Name: AlgorithmFloydWarshall, Variant: "recursive"},
		{Name: AlgorithmFloydWarshall, BlockSize: -2},
		{Name: AlgorithmJohnson, Variant: VariantNaive},
		{Name: AlgorithmAuto, Variant: VariantNaive},
	} {
		if _, err := b.AllPairs(ctx, e, alg, false); err == nil {
			t.Errorf("all pairs with %+v: no error", alg)
		}
	}
	if _, err := b.SingleSource(ctx, nil, 0, backend.Algorithm{Name: AlgorithmAuto}, false); err == nil {
		t.Error("nil graph: no error")
	}
	if _, err := b.AllPairs(ctx, &graph.EdgeList{N: 1, Src: []int32{0}}, backend.Algorithm{Name: AlgorithmAuto}, false); err == nil {
		t.Error("ragged arc arrays: no error")
	}
}

func TestChooseAlgorithm(t *testing.T) {
	for _, c := range []struct {
		p        Problem
		n        int32
		m        int
		negative bool
		want     string
	}{
		{ProblemSingleSource, 10, 20, false, AlgorithmDijkstra},
		{ProblemSingleSource, 10, 20, true, AlgorithmBellmanFord},
		{ProblemAllPairs, 4096, 5000, false, AlgorithmFloydWarshall},
		{ProblemAllPairs, 4096, 5000, true, AlgorithmFloydWarshall},
		{ProblemAllPairs, 4097, 5000, false, AlgorithmJohnson},
		{ProblemAllPairs, 4097, 5000, true, AlgorithmJohnson},
		{ProblemAllPairs, 10000, 10000 * 10000 / 128, false, AlgorithmFloydWarshall},
		{ProblemAllPairs, 10000, 10000*10000/128 - 1, false, AlgorithmJohnson},
	} {
		name, reason := ChooseAlgorithm(c.p, c.n, c.m, c.negative)
		if name != c.want || reason == "" {
			t.Errorf("%+v: got %q (%q), want %q", c, name, reason, c.want)
		}
	}
}

// TestBackendAutoBlockSize checks that a block size given with "auto" is
// used when the choice is Floyd-Warshall and ignored otherwise.
func TestBackendAutoBlockSize(t *testing.T) {
	ctx := context.Background()
	auto := backend.Algorithm{Name: AlgorithmAuto, BlockSize: 3}
	small := edges(5, [3]int32{0, 4, 2}, [3]int32{4, 2, 2})
	m, err := New(2).AllPairs(ctx, small, auto, false)
	if err != nil || m.Distance(0, 2) != 4 {
		t.Fatalf("floyd-warshall by auto: %v", err)
	}
	// Beyond 4096 vertices a sparse graph goes to Johnson.
	sparse := edges(floydWarshallMaxN+1, [3]int32{0, floydWarshallMaxN, -2})
	m, err = New(2).AllPairs(ctx, sparse, auto, false)
	if err != nil || m.Distance(0, floydWarshallMaxN) != -2 || m.Distance(1, 0) != paths.Unreachable {
		t.Fatalf("johnson by auto: %v", err)
	}
}
