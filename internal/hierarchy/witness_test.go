package hierarchy

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestWitnessSearchDecidesLikeDijkstra checks a witness search's verdicts
// against exact distances on random graphs whose weights come near
// MaxInt32, so that needs and tentative distances pass 2^31: a target is
// reached within its need exactly when its distance avoiding skip is at
// most the need. The table starts small and grows during the searches.
// Searches with a small settled limit may stop early, and then only the
// targets they call unsure may be decided wrongly (no witness where one
// exists).
func TestWitnessSearchDecidesLikeDijkstra(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	unsure := 0
	for trial := range 3000 {
		n := 5 + rng.IntN(60)
		lists := make(arcLists, n)
		for range n * 3 {
			u, v := rng.IntN(n), rng.IntN(n)
			if u != v {
				w := int32(rng.Int64N(math.MaxInt32))
				switch rng.IntN(3) {
				case 0:
					w = int32(rng.IntN(4)) // ties and zero weights
				case 1:
					w = math.MaxInt32 - int32(rng.IntN(4))
				}
				lists.upsert(int32(u), darc{to: int32(v), w: w, mid: NoMiddle, hops: 1})
			}
		}
		src, skip := int32(rng.IntN(n)), int32(rng.IntN(n))
		if src == skip {
			continue
		}
		dist := exactDistances(lists, src, skip)
		s := &witnessSearch{}
		s.alloc(2)
		s.reset()
		needs := map[int32]int64{}
		for range 1 + rng.IntN(5) {
			x := int32(rng.IntN(n))
			if _, ok := needs[x]; ok || x == skip {
				continue
			}
			need := rng.Int64N(2*math.MaxInt32 - 1)
			if d := dist[x]; d < infinity && rng.IntN(2) == 0 {
				need = min(d+rng.Int64N(3)-1, 2*math.MaxInt32-2)
			}
			needs[x] = max(need, 0)
			s.addTarget(x, needs[x])
		}
		limit := math.MaxInt32
		if rng.IntN(2) == 0 {
			limit = 1 + rng.IntN(n)
		}
		s.run(lists, src, skip, nil, limit)
		for x, need := range needs {
			if s.unsure(x) {
				unsure++
				if s.get(x) <= need {
					t.Fatalf("trial %d: target %d has a witness and is unsure", trial, x)
				}
				continue
			}
			if got, want := s.get(x) <= need, dist[x] <= need; got != want {
				t.Fatalf("trial %d: target %d, need %d, distance %d: search says witness %v (label %d)", trial, x, need, dist[x], got, s.get(x))
			}
		}
	}
	if unsure == 0 {
		t.Fatal("no search stopped at its limit with a target undecided")
	}
}

// exactDistances returns the distances from src over lists avoiding skip,
// by Bellman-Ford, O(n * arcs).
func exactDistances(lists arcLists, src, skip int32) []int64 {
	dist := make([]int64, len(lists))
	for v := range dist {
		dist[v] = infinity
	}
	dist[src] = 0
	for range lists {
		for u, list := range lists {
			if dist[u] == infinity || int32(u) == skip {
				continue
			}
			for i := range list.len() {
				if a := list.arc(i); a.to != skip {
					dist[a.to] = min(dist[a.to], dist[u]+int64(a.w))
				}
			}
		}
	}
	return dist
}
