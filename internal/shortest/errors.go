package shortest

import (
	"errors"
	"fmt"
	"math"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/graph"
)

// ErrNegativeWeight is wrapped by the error of an algorithm that needs
// non-negative weights (Dijkstra) when the graph has a negative arc.
var ErrNegativeWeight = errors.New("cpu: negative arc weight")

// ErrDistanceOverflow is wrapped when a shortest-path distance of the graph
// could exceed the exact range of int64 arithmetic.
var ErrDistanceOverflow = errors.New("cpu: distances could overflow int64")

// NegativeCycleError reports a cycle of negative total weight, which leaves
// shortest paths undefined; Bellman-Ford and Johnson trace the cycle.
type NegativeCycleError = backend.NegativeCycleError

// maxExactBound is the largest distance bound int64 searches accept: sums
// of two distances stay exact, and Inf64 + Inf64 fits.
const maxExactBound = math.MaxInt64 / 2

// checkDistanceBound returns ErrDistanceOverflow when a graph of n vertices
// with weights in [lo, hi] could have distances too large for exact int64
// arithmetic, with limit as the largest bound accepted.
func checkDistanceBound(n int32, lo, hi int32, limit int64) error {
	if b := graph.DistanceBound(int64(n), lo, hi); b >= limit {
		return fmt.Errorf("%w: %d vertices with weights in [%d, %d] allow distances up to %d", ErrDistanceOverflow, n, lo, hi, b)
	}
	return nil
}

// negativeArcError names the first negative arc of g for an algorithm that
// cannot take it, and the algorithm that can.
func negativeArcError(g *graph.CSR, algorithm, instead string) error {
	for u := int32(0); u < g.N; u++ {
		for i := g.Offsets[u]; i < g.Offsets[u+1]; i++ {
			if w := g.Weights[i]; w < 0 {
				return fmt.Errorf("%w: arc %d -> %d has weight %d; %s needs non-negative weights, use %s",
					ErrNegativeWeight, u, g.Targets[i], w, algorithm, instead)
			}
		}
	}
	return nil
}
