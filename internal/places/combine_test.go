package places

import (
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/internal/snap"
)

// randomPlaces makes count places over vertices 0..n-1, each with one or
// two seeds each way (or none: a place that did not snap).
func randomPlaces(rng *rand.Rand, count, n int) []snap.Place {
	out := make([]snap.Place, count)
	for i := range out {
		if rng.IntN(8) == 0 {
			out[i] = snap.Place{Reason: "beyond the snap distance"}
			continue
		}
		p := snap.Place{OK: true, Arc: int32(rng.IntN(1 << 20))}
		for range 1 + rng.IntN(2) {
			p.Out = append(p.Out, snap.Seed{Vertex: int32(rng.IntN(n)), Weight: int64(rng.IntN(50))})
			p.In = append(p.In, snap.Seed{Vertex: int32(rng.IntN(n)), Weight: int64(rng.IntN(50))})
		}
		out[i] = p
	}
	return out
}

// TestCombinerAgainstBruteForce feeds a Combiner the seed rows of a
// random distance matrix in random blocks, in random order, from several
// goroutines, and checks every answer against the minimum over seed pairs
// worked out directly, and that rows come in origin order.
func TestCombinerAgainstBruteForce(t *testing.T) {
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 7))
		n := 2 + rng.IntN(30)
		d := make([][]int64, n) // d[u][v]: the vertex table
		for u := range d {
			d[u] = make([]int64, n)
			for v := range d[u] {
				d[u][v] = int64(rng.IntN(1000))
				if rng.IntN(6) == 0 {
					d[u][v] = paths.Unreachable
				}
			}
		}
		origins, destinations := randomPlaces(rng, 1+rng.IntN(40), n), randomPlaces(rng, 1+rng.IntN(40), n)
		seeds := SeedsOf(origins, destinations)
		var got [][]int64
		c := NewCombiner(origins, destinations, seeds, nil, func(i int, row, _ []int64) error {
			if i != len(got) {
				t.Fatalf("seed %d: origin %d emitted after %d", seed, i, len(got))
			}
			got = append(got, row)
			return nil
		}, 1+int(seed%3))
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		// Blocks of 1 to 3 seed sources, in shuffled order.
		var blocks []*results.Rows
		for lo := 0; lo < len(seeds.Sources); {
			hi := min(lo+1+rng.IntN(3), len(seeds.Sources))
			b := &results.Rows{First: lo, Sources: seeds.Sources[lo:hi], Width: len(seeds.Targets)}
			for _, s := range b.Sources {
				for _, tv := range seeds.Targets {
					b.Dist64 = append(b.Dist64, d[s][tv])
				}
			}
			blocks = append(blocks, b)
			lo = hi
		}
		rng.Shuffle(len(blocks), func(i, j int) { blocks[i], blocks[j] = blocks[j], blocks[i] })
		var wg sync.WaitGroup
		for _, b := range blocks {
			wg.Go(func() {
				if err := c.Put(b); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
		for i, p := range origins {
			want := make([]int64, len(destinations))
			for j, q := range destinations {
				want[j] = NoPath
				if !p.OK || !q.OK {
					continue
				}
				for _, s := range p.Out {
					for _, tt := range q.In {
						if dd := d[s.Vertex][tt.Vertex]; dd != paths.Unreachable {
							if w := s.Weight + dd + tt.Weight; want[j] == NoPath || w < want[j] {
								want[j] = w
							}
						}
					}
				}
				if w, ok := snap.Direct(&p, &q); ok && (want[j] == NoPath || w < want[j]) {
					want[j] = w
				}
			}
			if !slices.Equal(got[i], want) {
				t.Fatalf("seed %d origin %d: got %v, want %v", seed, i, got[i], want)
			}
		}
	}
}
