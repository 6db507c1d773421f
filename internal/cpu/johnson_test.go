package cpu

import (
	"context"
	"errors"
	"testing"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/shortest/shortesttest"
)

func TestJohnsonCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, e := range []*graph.EdgeList{
		shortesttest.Edges(3, [3]int32{0, 1, 1}, [3]int32{1, 2, 1}),
		shortesttest.Edges(3, [3]int32{0, 1, -1}, [3]int32{1, 2, 1}),
	} {
		req, err := requestFor(e, backend.Algorithm{Name: backend.AlgorithmJohnson}, []int32{0, 1, 2}, true)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := collect(ctx, t, New(2), req); !errors.Is(err, context.Canceled) {
			t.Errorf("got %v, want context.Canceled", err)
		}
	}
}

// TestJohnsonCycleAnywhere checks that Johnson reports a negative cycle
// that no requested source reaches: its potentials span the whole graph.
func TestJohnsonCycleAnywhere(t *testing.T) {
	e := shortesttest.Edges(4, [3]int32{0, 1, 1}, [3]int32{2, 3, -2}, [3]int32{3, 2, 1})
	for _, name := range []string{backend.AlgorithmJohnson, backend.AlgorithmBellmanFord} {
		req, err := requestFor(e, backend.Algorithm{Name: name}, []int32{0, 1}, false)
		if err != nil {
			t.Fatal(err)
		}
		trees, err := collect(context.Background(), t, New(2), req)
		if name == backend.AlgorithmBellmanFord {
			if err != nil || trees[0].Dist[1] != 1 {
				t.Errorf("bellman-ford from sources that reach no cycle: %v", err)
			}
			continue
		}
		shortesttest.CheckNegativeCycle(t, e, err)
	}
}
