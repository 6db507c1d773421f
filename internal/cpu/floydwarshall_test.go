package cpu

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
)

// allPairsAlgorithm is one all-pairs implementation under test.
type allPairsAlgorithm struct {
	name string
	run  func(ctx context.Context, e *graph.EdgeList, withParents bool) (*paths.Matrix, error)
	// nonNegativeOnly algorithms must reject negative weights.
	nonNegativeOnly bool
}

func floydWarshallAlgorithms() []allPairsAlgorithm {
	algs := []allPairsAlgorithm{{name: "naive", run: checkedWidth(NaiveFloydWarshall)}}
	for _, bs := range []int{0, 1, 2, 3, 5, 16} {
		for _, workers := range []int{1, 3} {
			algs = append(algs, allPairsAlgorithm{
				name: fmt.Sprintf("blocked %d, %d workers", bs, workers),
				run: checkedWidth(func(ctx context.Context, e *graph.EdgeList, withParents bool) (*paths.Matrix, error) {
					return BlockedFloydWarshall(ctx, e, bs, workers, withParents)
				}),
			})
		}
	}
	return algs
}

// checkedWidth wraps a Floyd-Warshall function with a check of its
// matrix's distance type: int32 exactly when graph.FitsInt32Distances
// proves the distances fit, which is what Choose announces.
func checkedWidth(run func(ctx context.Context, e *graph.EdgeList, withParents bool) (*paths.Matrix, error)) func(ctx context.Context, e *graph.EdgeList, withParents bool) (*paths.Matrix, error) {
	return func(ctx context.Context, e *graph.EdgeList, withParents bool) (*paths.Matrix, error) {
		m, err := run(ctx, e, withParents)
		if err != nil {
			return nil, err
		}
		lo, hi := e.WeightRange()
		if small := graph.FitsInt32Distances(int64(e.N), lo, hi); small != (m.Dist32 != nil) || small == (m.Dist64 != nil) {
			return nil, fmt.Errorf("int32 distances provably fit: %v, but Dist32 set: %v, Dist64 set: %v", small, m.Dist32 != nil, m.Dist64 != nil)
		}
		return m, nil
	}
}

// testAllPairs runs every algorithm on every test graph, with and without
// predecessors, against the reference and gonum.
func testAllPairs(t *testing.T, algs []allPairsAlgorithm) {
	for _, tg := range testGraphs(t) {
		t.Run(tg.name, func(t *testing.T) {
			e := tg.e
			want, negative := referenceAllPairs(e)
			fromGonum, gonumNegative, gonumOK := gonumAllPairs(e)
			if gonumOK && gonumNegative != negative {
				t.Fatal("gonum and the reference disagree on a negative cycle")
			}
			if gonumOK && !negative {
				for s := range want {
					for v := range want[s] {
						if fromGonum[s][v] != want[s][v] {
							t.Fatalf("gonum and the reference disagree on %d -> %d", s, v)
						}
					}
				}
			}
			for _, alg := range algs {
				t.Run(alg.name, func(t *testing.T) { checkAllPairs(t, alg, e, want, negative) })
			}
		})
	}
}

// checkAllPairs runs alg on e, with and without predecessors, and checks
// the result against want or the negative cycle.
func checkAllPairs(t *testing.T, alg allPairsAlgorithm, e *graph.EdgeList, want [][]int64, negative bool) {
	ctx := context.Background()
	for _, withParents := range []bool{false, true} {
		m, err := alg.run(ctx, e, withParents)
		switch {
		case alg.nonNegativeOnly && e.HasNegativeWeight():
			if !errors.Is(err, ErrNegativeWeight) {
				t.Fatalf("%s: negative weights gave %v, want ErrNegativeWeight", alg.name, err)
			}
		case negative:
			checkNegativeCycle(t, e, err)
		case err != nil:
			t.Fatalf("%s: %v", alg.name, err)
		default:
			checkMatrix(t, e, m, want, withParents)
		}
	}
}

func TestFloydWarshall(t *testing.T) { testAllPairs(t, floydWarshallAlgorithms()) }

// TestFloydWarshallDistanceTypes checks the switch between int32 and
// int64 matrices right at the limit: the largest distance bound below
// graph.Inf32 gives int32, one more gives int64, and both are exact.
func TestFloydWarshallDistanceTypes(t *testing.T) {
	const n = 3
	for _, w := range []int32{(graph.Inf32 - 1) / 2, (graph.Inf32 + 1) / 2} {
		e := edges(n, [3]int32{0, 1, w}, [3]int32{1, 2, w})
		for _, alg := range floydWarshallAlgorithms()[:2] {
			m, err := alg.run(context.Background(), e, true)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := referenceAllPairs(e)
			checkMatrix(t, e, m, want, true)
			if m.Distance(0, 2) != 2*int64(w) || m.Distance(2, 0) != paths.Unreachable {
				t.Fatalf("weight %d: distances %d and %d", w, m.Distance(0, 2), m.Distance(2, 0))
			}
		}
	}
}

func TestFloydWarshallBadInput(t *testing.T) {
	ctx := context.Background()
	if _, err := BlockedFloydWarshall(ctx, edges(2), -1, 1, false); err == nil {
		t.Error("negative block size: no error")
	}
	bad := &graph.EdgeList{N: 2, Src: []int32{0}, Dst: []int32{2}, Weight: []int32{1}}
	for _, alg := range floydWarshallAlgorithms()[:2] {
		if _, err := alg.run(ctx, bad, false); err == nil {
			t.Errorf("%s: arc outside the graph: no error", alg.name)
		}
		if _, err := alg.run(ctx, nil, false); err == nil {
			t.Errorf("%s: nil graph: no error", alg.name)
		}
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	for _, alg := range floydWarshallAlgorithms()[:2] {
		if _, err := alg.run(cancelled, edges(2, [3]int32{0, 1, 1}), false); !errors.Is(err, context.Canceled) {
			t.Errorf("%s: cancelled context gave %v", alg.name, err)
		}
	}
}
