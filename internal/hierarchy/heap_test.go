package hierarchy

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestWitnessQueuePopsInOrder pushes and pops random unique keys, across
// the switch from a sorted array to a heap and back after reset, and
// checks every pop against a sorted reference.
func TestWitnessQueuePopsInOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	var q witnessQueue
	for trial := range 200 {
		q.reset()
		var ref []uint64
		next := uint64(0)
		for range 1 + rng.IntN(4*sortedQueueMax) {
			if len(ref) > 0 && rng.IntN(3) == 0 {
				want := slices.Min(ref)
				ref = slices.DeleteFunc(ref, func(k uint64) bool { return k == want })
				if got := q.pop(); got != want {
					t.Fatalf("trial %d: pop %d, want %d", trial, got, want)
				}
				continue
			}
			next += 1 + uint64(rng.IntN(5))
			key := pack(uint32(rng.IntN(50)), uint32(next)) // unique index
			ref = append(ref, key)
			q.push(key)
		}
		if q.len() != len(ref) {
			t.Fatalf("trial %d: %d keys, want %d", trial, q.len(), len(ref))
		}
		// Rekey to other indices, as a grown table does, then drain.
		q.rekey(func(k uint64) uint64 { return k ^ 1<<20 })
		for i := range ref {
			ref[i] ^= 1 << 20
		}
		slices.Sort(ref)
		for _, want := range ref {
			if got := q.pop(); got != want {
				t.Fatalf("trial %d: drained %d, want %d", trial, got, want)
			}
		}
	}
}
