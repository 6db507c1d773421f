package shortest

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/shortest/shortesttest"
)

func floydWarshallAlgorithms() []shortesttest.AllPairsAlgorithm {
	algs := []shortesttest.AllPairsAlgorithm{{Name: "naive", Run: checkedWidth(NaiveFloydWarshall)}}
	for _, bs := range []int{0, 1, 2, 3, 5, 16} {
		for _, workers := range []int{1, 3} {
			algs = append(algs, shortesttest.AllPairsAlgorithm{
				Name: fmt.Sprintf("blocked %d, %d workers", bs, workers),
				Run: checkedWidth(func(ctx context.Context, e *graph.EdgeList, withParents bool) (*paths.Matrix, error) {
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

func TestFloydWarshall(t *testing.T) {
	shortesttest.TestAllPairs(t, floydWarshallAlgorithms(), ErrNegativeWeight)
}

// TestFloydWarshallDistanceTypes checks the switch between int32 and
// int64 matrices right at the limit: the largest distance bound below
// graph.Inf32 gives int32, one more gives int64, and both are exact.
func TestFloydWarshallDistanceTypes(t *testing.T) {
	const n = 3
	for _, w := range []int32{(graph.Inf32 - 1) / 2, (graph.Inf32 + 1) / 2} {
		e := shortesttest.Edges(n, [3]int32{0, 1, w}, [3]int32{1, 2, w})
		for _, alg := range floydWarshallAlgorithms()[:2] {
			m, err := alg.Run(context.Background(), e, true)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := shortesttest.AllPairs(e)
			shortesttest.CheckMatrix(t, e, m, want, true)
			if m.Distance(0, 2) != 2*int64(w) || m.Distance(2, 0) != paths.Unreachable {
				t.Fatalf("weight %d: distances %d and %d", w, m.Distance(0, 2), m.Distance(2, 0))
			}
		}
	}
}

func TestFloydWarshallBadInput(t *testing.T) {
	ctx := context.Background()
	if _, err := BlockedFloydWarshall(ctx, shortesttest.Edges(2), -1, 1, false); err == nil {
		t.Error("negative block size: no error")
	}
	bad := &graph.EdgeList{N: 2, Src: []int32{0}, Dst: []int32{2}, Weight: []int32{1}}
	for _, alg := range floydWarshallAlgorithms()[:2] {
		if _, err := alg.Run(ctx, bad, false); err == nil {
			t.Errorf("%s: arc outside the graph: no error", alg.Name)
		}
		if _, err := alg.Run(ctx, nil, false); err == nil {
			t.Errorf("%s: nil graph: no error", alg.Name)
		}
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	for _, alg := range floydWarshallAlgorithms()[:2] {
		if _, err := alg.Run(cancelled, shortesttest.Edges(2, [3]int32{0, 1, 1}), false); !errors.Is(err, context.Canceled) {
			t.Errorf("%s: cancelled context gave %v", alg.Name, err)
		}
	}
}
