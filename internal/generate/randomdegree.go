package generate

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/parallel"
)

// degreeChunk is how many vertices share one random stream in RandomDegree.
const degreeChunk = 1 << 15

// degreeStreams is the stream namespace of RandomDegree's vertex chunks.
const degreeStreams = 3 << 40

// RandomDegree returns a strongly connected random digraph in which every
// vertex has out-degree exactly k, the classic GPU shortest-path benchmark
// (k = 7 with 1 to 10 million vertices).
//
// Connectivity comes first: a uniformly random permutation π of the
// vertices is closed into a Hamiltonian cycle, and the first arc of vertex
// π[i] goes to π[i+1 mod n], so every vertex reaches every other. The other
// k-1 arcs of each vertex go to uniformly random vertices other than itself;
// there are no self-loops but parallel arcs may occur. Arcs come grouped by
// source in vertex order, k per vertex. n = 1 has no valid graph (its arcs
// would be self-loops) and is an error.
//
// O(n k) time; the permutation and the arcs of vertex chunks are drawn in
// parallel, each piece from its own stream.
func RandomDegree(n int32, k int, lo, hi int32, seed uint64) (*graph.EdgeList, error) {
	if err := checkVertices(n); err != nil {
		return nil, err
	}
	if k < 1 {
		return nil, fmt.Errorf("generate: out-degree %d is below 1", k)
	}
	if err := checkWeights(lo, hi); err != nil {
		return nil, err
	}
	if n == 1 {
		return nil, errors.New("generate: a fixed out-degree graph without self-loops needs at least 2 vertices")
	}
	if int64(n)*int64(k) > math.MaxInt {
		return nil, fmt.Errorf("generate: %d vertices of out-degree %d overflow the arc count", n, k)
	}
	m := int(n) * k
	e := &graph.EdgeList{
		N:      n,
		Src:    make([]int32, m),
		Dst:    make([]int32, m),
		Weight: make([]int32, m),
	}
	if n == 0 {
		return e, nil
	}

	// The Hamiltonian cycle: succ[π[i]] = π[i+1 mod n], written in
	// parallel (the targets are distinct).
	perm := randomPermutation(int(n), seed)
	succ := make([]int32, n)
	parallelRanges(len(perm), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			succ[perm[i]] = perm[(i+1)%len(perm)]
		}
	})

	w := newWeightDrawer(lo, hi)
	chunks := (int(n) + degreeChunk - 1) / degreeChunk
	parallel.For(chunks, runtime.GOMAXPROCS(0), func(c int) {
		src := stream(seed, degreeStreams+uint64(c))
		r := rand.New(src)
		for u := c * degreeChunk; u < min((c+1)*degreeChunk, int(n)); u++ {
			arcs := u * k
			for j := range k {
				e.Src[arcs+j] = int32(u)
				if j == 0 {
					e.Dst[arcs] = succ[u]
				} else {
					v := r.Uint32N(uint32(n) - 1) // any vertex but u
					if v >= uint32(u) {
						v++
					}
					e.Dst[arcs+j] = int32(v)
				}
				e.Weight[arcs+j] = w.draw(src)
			}
		}
	})
	return e, nil
}
