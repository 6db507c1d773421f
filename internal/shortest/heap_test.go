package shortest

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestIndexedHeap checks pops come out in key order under random pushes,
// decrease-keys and pops, against a plain map model, and that the position
// index is clean afterwards.
func TestIndexedHeap(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 8))
	const n = 500
	h := newIndexedHeap(n)
	for round := range 3 {
		model := map[int32]int64{}
		for step := range 5000 {
			v := r.Int32N(n)
			key := r.Int64N(1 << 40)
			switch old, in := model[v]; {
			case !in && step%3 != 0:
				h.push(v, key)
				model[v] = key
			case in && key < old:
				h.decrease(v, key)
				model[v] = key
			case len(model) > 0:
				u, k := h.pop()
				want := slices.Min(slicesValues(model))
				if k != want || model[u] != k {
					t.Fatalf("round %d: popped %d with key %d, smallest key is %d", round, u, k, want)
				}
				delete(model, u)
			}
		}
		for len(model) > 0 {
			u, k := h.pop()
			if want := slices.Min(slicesValues(model)); k != want || model[u] != k {
				t.Fatalf("draining: popped %d with key %d, smallest key is %d", u, k, want)
			}
			delete(model, u)
		}
		if !h.empty() {
			t.Fatal("heap not empty")
		}
		for v, p := range h.pos {
			if p != notInHeap {
				t.Fatalf("position of %d is %d after draining", v, p)
			}
		}
	}
}

func slicesValues(m map[int32]int64) []int64 {
	out := make([]int64, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	return out
}
