package hierarchy

import (
	"math/rand/v2"
	"testing"
)

// TestPairMaskFollowsRemovals removes random arcs from a list the way
// remove does (the last arc takes the place of the removed one) and checks
// that the mask still marks exactly the pairs of arcs, by neighbour, that
// were marked while both sat in covered positions: for two lists (rows and
// columns) and for one list (pairs kept in position order).
func TestPairMaskFollowsRemovals(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	type pair struct{ a, b int }
	for trial := range 2000 {
		symmetric := trial%2 == 0
		ins, outs := make([]int, 2+rng.IntN(12)), make([]int, 2+rng.IntN(12))
		for i := range ins {
			ins[i] = 100 + i
		}
		for j := range outs {
			outs[j] = 200 + j
		}
		if symmetric {
			outs = ins
		}
		var m pairMask
		marked := map[pair]bool{}
		for range 20 {
			i, j := rng.IntN(len(ins)), rng.IntN(len(outs))
			if symmetric {
				i, j = min(i, j), max(i, j)
				if i == j {
					continue
				}
			}
			m.set(i, j)
			if covers(i) && covers(j) {
				marked[pair{ins[i], outs[j]}] = true
			}
		}
		drop := func(list []int, i int) []int {
			last := len(list) - 1
			list[i] = list[last]
			return list[:last]
		}
		for range 1 + rng.IntN(8) {
			if symmetric {
				if len(ins) < 2 {
					break
				}
				i, last := rng.IntN(len(ins)), len(ins)-1
				if !covers(i) || covers(last) {
					// an arc from beyond the mask would be made fresh
					m = m.moveBoth(i, last)
					ins = drop(ins, i)
					outs = ins
				}
			} else if rng.IntN(2) == 0 && len(ins) > 1 {
				i, last := rng.IntN(len(ins)), len(ins)-1
				if !covers(i) || covers(last) {
					m = m.moveRow(i, last)
					ins = drop(ins, i)
				}
			} else if len(outs) > 1 {
				j, last := rng.IntN(len(outs)), len(outs)-1
				if !covers(j) || covers(last) {
					m = m.moveCol(j, last)
					outs = drop(outs, j)
				}
			}
		}
		for i := range ins {
			for j := range outs {
				if symmetric && i >= j {
					continue
				}
				want := covers(i) && covers(j) && (marked[pair{ins[i], outs[j]}] || (symmetric && marked[pair{outs[j], ins[i]}]))
				if got := m.has(i, j); got != want {
					t.Fatalf("trial %d (symmetric %v): pair %d, %d (neighbours %d, %d): has %v, want %v", trial, symmetric, i, j, ins[i], outs[j], got, want)
				}
			}
		}
	}
}
