package gputest

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"

	"github.com/pathflow/pathflow/formats"
	"github.com/pathflow/pathflow/internal/graph"
)

// RandomGraph returns a directed graph of n vertices and m random arcs
// (self-loops and parallel arcs allowed) with weights in [lo, hi]. When
// shift > 0 every vertex gets a random potential p(v) in [0, shift] and arc
// u -> v the weight w + p(u) - p(v): weights can turn negative, but every
// cycle keeps its non-negative weight, so there is no negative cycle
// (lo >= 0 required then). Vertices no arc touches stay isolated.
func RandomGraph(r *rand.Rand, n int32, m int, lo, hi, shift int32) *graph.EdgeList {
	e := graph.NewEdgeList(n, m)
	if n == 0 {
		return e
	}
	pot := make([]int32, n)
	if shift > 0 {
		for v := range pot {
			pot[v] = r.Int32N(shift + 1)
		}
	}
	for range m {
		u, v := r.Int32N(n), r.Int32N(n)
		w := lo + r.Int32N(hi-lo+1)
		e.Add(u, v, w+pot[u]-pot[v])
	}
	return e
}

// Gnutella weighting, the datasets README's rule for comparing tools.
const (
	HashSeed = 42
	HashLo   = 1
	HashHi   = 100
)

// ReadSNAP reads a directed SNAP edge list with the hash weights (seed 42,
// weights 1..100).
func ReadSNAP(path string) (_ *graph.EdgeList, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("gputest: %w", err)
	}
	defer func() {
		if cerr := f.Close(); cerr != nil {
			err = errors.Join(err, fmt.Errorf("gputest: %w", cerr))
		}
	}()
	e, _, err := formats.ReadSNAP(f, path, formats.SNAPOptions{
		Directed: true, Weighting: formats.WeightHash, Lo: HashLo, Hi: HashHi, Seed: HashSeed,
	})
	return e, err
}

// LineGraph is the path 0 -> 1 -> ... -> n-1 with every arc of weight w.
func LineGraph(n int32, w int32) *graph.EdgeList {
	e := graph.NewEdgeList(n, int(n))
	for v := int32(0); v+1 < n; v++ {
		e.Add(v, v+1, w)
	}
	return e
}
