package shortesttest

import (
	"context"
	"errors"
	"testing"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
)

// AllPairsAlgorithm is one all-pairs implementation under test.
type AllPairsAlgorithm struct {
	Name string
	Run  func(ctx context.Context, e *graph.EdgeList, withParents bool) (*paths.Matrix, error)
	// NonNegativeOnly algorithms must reject negative weights, with an
	// error wrapping the one TestAllPairs is given.
	NonNegativeOnly bool
}

// TestAllPairs runs every algorithm on every test graph, with and without
// predecessors, against the reference and gonum; negativeWeight is the
// error NonNegativeOnly algorithms wrap for negative weights.
func TestAllPairs(t *testing.T, algs []AllPairsAlgorithm, negativeWeight error) {
	for _, tg := range Graphs(t) {
		t.Run(tg.Name, func(t *testing.T) {
			e := tg.Edges
			want, negative := AllPairs(e)
			fromGonum, gonumNegative, gonumOK := GonumAllPairs(e)
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
				t.Run(alg.Name, func(t *testing.T) { checkAllPairs(t, alg, e, want, negative, negativeWeight) })
			}
		})
	}
}

// checkAllPairs runs alg on e, with and without predecessors, and checks
// the result against want or the negative cycle.
func checkAllPairs(t *testing.T, alg AllPairsAlgorithm, e *graph.EdgeList, want [][]int64, negative bool, negativeWeight error) {
	ctx := context.Background()
	for _, withParents := range []bool{false, true} {
		m, err := alg.Run(ctx, e, withParents)
		switch {
		case alg.NonNegativeOnly && e.HasNegativeWeight():
			if !errors.Is(err, negativeWeight) {
				t.Fatalf("%s: negative weights gave %v, want %v", alg.Name, err, negativeWeight)
			}
		case negative:
			CheckNegativeCycle(t, e, err)
		case err != nil:
			t.Fatalf("%s: %v", alg.Name, err)
		default:
			CheckMatrix(t, e, m, want, withParents)
		}
	}
}
