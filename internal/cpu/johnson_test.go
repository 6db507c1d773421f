package cpu

import (
	"context"
	"errors"
	"testing"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
)

func TestJohnson(t *testing.T) {
	testAllPairs(t, []allPairsAlgorithm{
		{name: "johnson, 1 worker", run: func(ctx context.Context, e *graph.EdgeList, withParents bool) (*paths.Matrix, error) {
			return Johnson(ctx, e, 1, withParents)
		}},
		{name: "johnson, 3 workers", run: func(ctx context.Context, e *graph.EdgeList, withParents bool) (*paths.Matrix, error) {
			return Johnson(ctx, e, 3, withParents)
		}},
		{name: "repeated dijkstra", nonNegativeOnly: true, run: func(ctx context.Context, e *graph.EdgeList, withParents bool) (*paths.Matrix, error) {
			return repeatedDijkstra(ctx, e, 2, withParents, false)
		}},
	})
}

func TestJohnsonCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, e := range []*graph.EdgeList{
		edges(3, [3]int32{0, 1, 1}, [3]int32{1, 2, 1}),
		edges(3, [3]int32{0, 1, -1}, [3]int32{1, 2, 1}),
	} {
		if _, err := Johnson(ctx, e, 2, true); !errors.Is(err, context.Canceled) {
			t.Errorf("got %v, want context.Canceled", err)
		}
	}
}
