package hierarchy

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// isPermutation reports whether p holds each of 0..len(p)-1 once.
func isPermutation(p []int32) bool {
	seen := make([]bool, len(p))
	for _, v := range p {
		if v < 0 || int(v) >= len(p) || seen[v] {
			return false
		}
		seen[v] = true
	}
	return true
}

// TestLocalityOrderKeepsBlocksTogether checks the property the build
// relies on: on a 64 x 64 grid (one vertex per cell of the curve) every
// aligned 8 x 8 block of vertices takes 64 consecutive places.
func TestLocalityOrderKeepsBlocksTogether(t *testing.T) {
	const side = 64
	rng := rand.New(rand.NewPCG(3, 3))
	ids := rng.Perm(side * side) // vertex ids unrelated to positions
	x, y := make([]int32, side*side), make([]int32, side*side)
	for p, v := range ids {
		x[v], y[v] = int32(p%side)-20, int32(p/side)+1000
	}
	order := localityOrder(x, y)
	if !isPermutation(order) {
		t.Fatal("not a permutation")
	}
	first := map[[2]int32]int{}
	for i, v := range order {
		block := [2]int32{(x[v] + 20) / 8, (y[v] - 1000) / 8}
		f, ok := first[block]
		if !ok {
			first[block] = i
			f = i
		}
		if i-f >= 64 {
			t.Fatalf("block %v spans places %d to %d", block, f, i)
		}
	}
}

func TestLocalityOrderEdgeCases(t *testing.T) {
	if localityOrder(nil, nil) != nil {
		t.Error("no vertices: want nil")
	}
	// All at one point: one cell, ids in order.
	same := make([]int32, 5)
	if got := localityOrder(same, same); !slices.Equal(got, []int32{0, 1, 2, 3, 4}) {
		t.Errorf("one point: %v", got)
	}
	// The widest coordinates int32 allows.
	rng := rand.New(rand.NewPCG(4, 4))
	x, y := make([]int32, 1000), make([]int32, 1000)
	for v := range x {
		x[v], y[v] = int32(rng.Uint32()), int32(rng.Uint32())
	}
	x[0], x[1], y[0], y[1] = -1<<31, 1<<31-1, -1<<31, 1<<31-1
	if !isPermutation(localityOrder(x, y)) {
		t.Error("wide coordinates: not a permutation")
	}
}
