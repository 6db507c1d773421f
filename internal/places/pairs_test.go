package places

import (
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/internal/snap"
)

// TestPairCombinerAgainstBruteForce feeds a PairCombiner the ragged seed
// rows of random trips over a random distance matrix, in random blocks
// from several goroutines, and checks every trip's answer against the
// minimum over its seed pairs worked out directly.
func TestPairCombinerAgainstBruteForce(t *testing.T) {
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 11))
		n := 2 + rng.IntN(30)
		d := make([][]int64, n)
		for u := range d {
			d[u] = make([]int64, n)
			for v := range d[u] {
				d[u][v] = int64(rng.IntN(1000))
				if rng.IntN(6) == 0 {
					d[u][v] = paths.Unreachable
				}
			}
		}
		trips := 1 + rng.IntN(60)
		origins, destinations := randomPlaces(rng, trips, n), randomPlaces(rng, trips, n)
		seeds := PairSeedsOf(origins, destinations)
		c := NewPairCombiner(origins, destinations, seeds, nil, 1+int(seed%3))
		var blocks []*results.Rows
		for lo := 0; lo < len(seeds.Sources); {
			hi := min(lo+1+rng.IntN(3), len(seeds.Sources))
			b := &results.Rows{First: lo, Sources: seeds.Sources[lo:hi], Offsets: []int{0}}
			for k := lo; k < hi; k++ {
				for _, tv := range seeds.Targets[k] {
					b.Dist64 = append(b.Dist64, d[seeds.Sources[k]][tv])
				}
				b.Offsets = append(b.Offsets, len(b.Dist64))
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
		for i := range trips {
			p, q := origins[i], destinations[i]
			want := NoPath
			if p.OK && q.OK {
				for _, s := range p.Out {
					for _, tt := range q.In {
						if dd := d[s.Vertex][tt.Vertex]; dd != paths.Unreachable {
							if w := s.Weight + dd + tt.Weight; want == NoPath || w < want {
								want = w
							}
						}
					}
				}
				if w, ok := snap.Direct(&p, &q); ok && (want == NoPath || w < want) {
					want = w
				}
			}
			if got := c.Answers().Weights[i]; got != want {
				t.Fatalf("seed %d trip %d: %d, want %d", seed, i, got, want)
			}
		}
	}
}

// TestWriteTripsRefusesAClashingColumn checks that a trip file's own
// column named like one the output writes is refused, naming it, rather
// than written twice.
func TestWriteTripsRefusesAClashingColumn(t *testing.T) {
	b := array.NewInt64Builder(memory.DefaultAllocator)
	b.AppendValues([]int64{1}, nil)
	ids := b.NewArray()
	defer ids.Release()
	places := []snap.Place{{}}
	_, err := WriteTrips(t.TempDir(), ids, "id", []arrow.Field{{Name: ColDistance, Type: arrow.PrimitiveTypes.Int64}}, []arrow.Array{ids}, places, places, Answers{Weights: []int64{NoPath}}, arrow.Field{}, nil)
	if err == nil || !strings.Contains(err.Error(), `"distance"`) {
		t.Errorf("a column named distance: %v", err)
	}
}
