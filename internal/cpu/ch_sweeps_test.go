package cpu

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/pathflow/pathflow/internal/generate"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/hierarchy"
	"github.com/pathflow/pathflow/internal/shortest/shortesttest"
)

// However many workers copy rows at once, and in whatever order they
// arrive, the sweeps of a run never make more states than they were
// allowed, and every row is the one Trees computes.
func TestCHSweepStatesNeverExceedTheirBound(t *testing.T) {
	e, _, err := generate.Road(30, 5)
	if err != nil {
		t.Fatal(err)
	}
	h, err := hierarchy.Build(context.Background(), graph.BuildCSR(e))
	if err != nil {
		t.Fatal(err)
	}
	n := int(h.N)
	r := rand.New(rand.NewPCG(shortesttest.FreshSeed(t), 42))
	sources := sampleSources(r, h.N, 45) // six sweeps, the last partial
	want := make([]int64, len(sources)*n)
	if err := h.Trees(sources, want, 1); err != nil {
		t.Fatal(err)
	}
	lanes := hierarchy.TreeLanes
	for _, held := range []int{1, 2, 3} {
		for _, workers := range []int{1, 4, 16} {
			s := newChSweeps(h, len(sources), held, workers)
			for i := range sources {
				s.all[i/lanes].left.Add(1)
			}
			ctx := context.Background()
			got := make([]int64, len(sources)*n)
			var (
				wg   sync.WaitGroup
				next sync.Mutex
				row  int
				mu   sync.Mutex
				most int
			)
			for w := range workers {
				wg.Go(func() {
					jitter := rand.New(rand.NewPCG(uint64(w), uint64(held)))
					for {
						// Rows are claimed in order, as the pool hands out
						// blocks, one row a block.
						next.Lock()
						k := row
						row++
						next.Unlock()
						if k >= len(sources) {
							return
						}
						i := k / lanes
						sweepSources := sources[i*lanes : min(len(sources), (i+1)*lanes)]
						if !s.run(ctx, i, sweepSources, true) {
							for j := i + 1; j < min(len(s.all), i+s.held); j++ {
								if s.run(ctx, j, sources[j*lanes:min(len(sources), (j+1)*lanes)], false) {
									break
								}
							}
							<-s.all[i].done
						}
						if err := s.all[i].err; err != nil {
							t.Error(err)
							return
						}
						s.mu.Lock()
						inUse := s.made - len(s.free)
						s.mu.Unlock()
						mu.Lock()
						most = max(most, inUse)
						mu.Unlock()
						time.Sleep(time.Duration(jitter.IntN(200)) * time.Microsecond)
						if err := s.all[i].sweep.Rows(k-i*lanes, 1, got[k*n:(k+1)*n]); err != nil {
							t.Error(err)
							return
						}
						s.copied(i)
					}
				})
			}
			wg.Wait()
			if s.made > held || most > held {
				t.Errorf("%d states allowed, %d workers: %d made, %d in use at once", held, workers, s.made, most)
			}
			if !slices.Equal(got, want) {
				t.Errorf("%d states allowed, %d workers: rows differ from Trees'", held, workers)
			}
		}
	}
}
