package cpu

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
)

// TestMultiSource checks that every tree arrives, in source order
// (repeats included), equal to a single search from that source, for
// every algorithm and worker count.
func TestMultiSource(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(rand.Uint64(), 4))
	for _, tg := range testGraphs(t) {
		e := tg.e
		if e.N == 0 {
			continue
		}
		g := graph.BuildCSR(e)
		sources := make([]int32, 3*e.N+1)
		for i := range sources {
			sources[i] = r.Int32N(e.N)
		}
		for _, workers := range []int{1, 2, 5} {
			for _, name := range []string{AlgorithmAuto, AlgorithmDijkstra, AlgorithmBellmanFord} {
				var got []*paths.Tree
				err := New(workers).MultiSource(ctx, g, sources, backend.Algorithm{Name: name}, true, func(t *paths.Tree) error {
					got = append(got, t)
					return nil
				})
				if name == AlgorithmDijkstra && e.HasNegativeWeight() {
					if !errors.Is(err, ErrNegativeWeight) {
						t.Fatalf("%s, %s: got %v, want ErrNegativeWeight", tg.name, name, err)
					}
					continue
				}
				if err != nil {
					// A negative cycle reachable from some source stops
					// the run; the trees before it are still checked.
					var nc *NegativeCycleError
					if !errors.As(err, &nc) {
						t.Fatalf("%s, %s, %d workers: %v", tg.name, name, workers, err)
					}
					checkNegativeCycle(t, e, err)
				}
				for i, tree := range got {
					if tree.Source != sources[i] {
						t.Fatalf("%s: tree %d is from %d, want %d", tg.name, i, tree.Source, sources[i])
					}
					want, negative := referenceBellmanFord(e, tree.Source)
					if negative {
						t.Fatalf("%s: tree from %d emitted despite a reachable negative cycle", tg.name, tree.Source)
					}
					checkTree(t, e, g, tree, want)
				}
				if err == nil && len(got) != len(sources) {
					t.Fatalf("%s: %d trees for %d sources", tg.name, len(got), len(sources))
				}
			}
		}
	}
}

// TestInOrderBoundsInFlight checks the memory bound: a worker never runs
// more than 2*workers indices ahead of emit, however slow emit is.
func TestInOrderBoundsInFlight(t *testing.T) {
	const count, workers = 200, 3
	var started, emitted, worst atomic.Int64
	err := inOrder(context.Background(), count, workers, func() func(context.Context, int) (int, error) {
		return func(_ context.Context, i int) (int, error) {
			ahead := started.Add(1) - emitted.Load()
			for old := worst.Load(); ahead > old && !worst.CompareAndSwap(old, ahead); old = worst.Load() {
			}
			return i, nil
		}
	}, func(i int) error {
		if int64(i) != emitted.Load() {
			t.Errorf("emitted %d in position %d", i, emitted.Load())
		}
		if i%10 == 0 {
			time.Sleep(time.Millisecond) // a slow consumer
		}
		emitted.Add(1)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if emitted.Load() != count {
		t.Fatalf("emitted %d of %d", emitted.Load(), count)
	}
	if w := worst.Load(); w > 2*workers {
		t.Fatalf("%d results in flight, want at most %d", w, 2*workers)
	}
}

// TestInOrderStops checks that an error from work, from emit or from the
// context ends the run with that error, and nothing is emitted after it.
func TestInOrderStops(t *testing.T) {
	boom := errors.New("boom")
	work := func(failAt int) func() func(context.Context, int) (int, error) {
		return func() func(context.Context, int) (int, error) {
			return func(ctx context.Context, i int) (int, error) {
				if i == failAt {
					return 0, boom
				}
				return i, ctx.Err()
			}
		}
	}
	var emitted []int
	err := inOrder(context.Background(), 100, 4, work(37), func(i int) error {
		emitted = append(emitted, i)
		return nil
	})
	if !errors.Is(err, boom) || len(emitted) != 37 {
		t.Fatalf("work error: got %v after %d results, want boom after 37", err, len(emitted))
	}
	err = inOrder(context.Background(), 100, 4, work(-1), func(i int) error {
		if i == 12 {
			return boom
		}
		return nil
	})
	if !errors.Is(err, boom) {
		t.Fatalf("emit error: got %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	err = inOrder(ctx, 1000, 4, work(-1), func(i int) error {
		if n++; n == 5 {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) || n > 5+8 {
		t.Fatalf("cancel: got %v after %d results", err, n)
	}
}

func TestForEach(t *testing.T) {
	seen := make([]atomic.Int32, 1000)
	err := forEach(context.Background(), len(seen), 4, func() func(int) error {
		return func(i int) error {
			seen[i].Add(1)
			return nil
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	for i := range seen {
		if seen[i].Load() != 1 {
			t.Fatalf("index %d ran %d times", i, seen[i].Load())
		}
	}
	boom := errors.New("boom")
	var ran atomic.Int32
	err = forEach(context.Background(), 1000, 4, func() func(int) error {
		return func(i int) error {
			ran.Add(1)
			if i == 10 {
				return boom
			}
			return nil
		}
	})
	if !errors.Is(err, boom) || ran.Load() == 1000 {
		t.Fatalf("got %v after %d of 1000", err, ran.Load())
	}
	if err := forEach(context.Background(), 0, 4, nil); err != nil {
		t.Fatal(err)
	}
}

func TestMultiSourceValidates(t *testing.T) {
	g := graph.BuildCSR(edges(3, [3]int32{0, 1, 1}))
	emit := func(*paths.Tree) error { t.Fatal("emitted a tree for an invalid request"); return nil }
	ctx := context.Background()
	b := New(2)
	if err := b.MultiSource(ctx, g, []int32{0, 3}, backend.Algorithm{Name: AlgorithmDijkstra}, false, emit); err == nil {
		t.Error("source outside the graph: no error")
	}
	if err := b.MultiSource(ctx, g, []int32{0}, backend.Algorithm{Name: AlgorithmJohnson}, false, emit); err == nil {
		t.Error("all-pairs algorithm: no error")
	}
	if err := b.MultiSource(ctx, g, nil, backend.Algorithm{Name: AlgorithmDijkstra}, false, emit); err != nil {
		t.Errorf("no sources: %v", err)
	}
	got := []int32{}
	err := b.MultiSource(ctx, g, []int32{2, 0, 2}, backend.Algorithm{Name: AlgorithmAuto}, false, func(t *paths.Tree) error {
		got = append(got, t.Source)
		return nil
	})
	if err != nil || !slices.Equal(got, []int32{2, 0, 2}) {
		t.Errorf("got sources %v, %v", got, err)
	}
}
