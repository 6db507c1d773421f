package cpu

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/generate"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/results"
)

// searchAlgorithms are the algorithms that stream rows from a pool.
var searchAlgorithms = []string{backend.AlgorithmDijkstra, backend.AlgorithmBellmanFord, backend.AlgorithmJohnson}

// grid8 is an 8 x 8 grid with weights 1..9: 64 vertices.
func grid8(t *testing.T) *graph.EdgeList {
	t.Helper()
	e, err := generate.Grid(8, 1, 9, 1)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// checkNoLeak fails t unless the number of goroutines drops back to before
// (a goroutine may still be on its way out just after Run returns).
func checkNoLeak(t *testing.T, before int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines, %d before the run:\n%s", runtime.NumGoroutine(), before, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(time.Millisecond)
	}
}

// TestRunPoolBound checks that a sink holding on to every block stops the
// producers once the pool is empty, and that cancelling the context then
// ends Run with context.Canceled and no goroutine left behind.
func TestRunPoolBound(t *testing.T) {
	e := grid8(t)
	const workers = 2
	for _, name := range searchAlgorithms {
		req, err := requestFor(e, backend.Algorithm{Name: name}, allSources(e.N), true)
		if err != nil {
			t.Fatal(err)
		}
		b := New(workers)
		b.blockValues = int(e.N) // a row per block: 64 blocks, 4 in the pool
		poolSize := blocksPerWorker * workers
		before := runtime.NumGoroutine()
		ctx, cancel := context.WithCancel(context.Background())
		var mu sync.Mutex
		var held []*results.Rows
		full := make(chan struct{})
		done := make(chan error, 1)
		go func() {
			done <- b.Run(ctx, req, func(rows *results.Rows) error {
				mu.Lock()
				defer mu.Unlock()
				if held = append(held, rows); len(held) == poolSize {
					close(full)
				}
				return nil
			})
		}()
		select {
		case <-full:
		case err := <-done:
			t.Fatalf("%s: Run returned %v while the sink held its blocks", name, err)
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: the pool's %d blocks never reached the sink", name, poolSize)
		}
		// An unbounded producer would hand over the other 60 rows
		// meanwhile.
		time.Sleep(20 * time.Millisecond)
		mu.Lock()
		if len(held) != poolSize {
			t.Errorf("%s: the sink holds %d blocks, the pool has %d", name, len(held), poolSize)
		}
		mu.Unlock()
		select {
		case err := <-done:
			t.Fatalf("%s: Run returned %v while the sink held its blocks", name, err)
		default:
		}
		cancel()
		select {
		case err := <-done:
			if !errors.Is(err, context.Canceled) {
				t.Errorf("%s: cancelled run gave %v", name, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: Run did not return after cancel", name)
		}
		checkNoLeak(t, before)
		for _, rows := range held {
			rows.Release()
		}
	}
}

// TestRunOrderedConsumer runs a consumer that, like an ordered writer,
// keeps every block until all rows before it have arrived. Blocks are
// computed in the order they are taken from the pool, so this never
// deadlocks however small the pool.
func TestRunOrderedConsumer(t *testing.T) {
	e := grid8(t)
	for _, name := range searchAlgorithms {
		req, err := requestFor(e, backend.Algorithm{Name: name}, allSources(e.N), false)
		if err != nil {
			t.Fatal(err)
		}
		b := New(3)
		b.blockValues = int(e.N)
		var mu sync.Mutex
		waiting := map[int]*results.Rows{}
		next := 0
		done := make(chan error, 1)
		go func() {
			done <- b.Run(context.Background(), req, func(rows *results.Rows) error {
				mu.Lock()
				defer mu.Unlock()
				waiting[rows.First] = rows
				for w, ok := waiting[next]; ok; w, ok = waiting[next] {
					delete(waiting, next)
					next += w.Len()
					w.Release()
				}
				return nil
			})
		}()
		select {
		case err := <-done:
			if err != nil || next != len(req.Sources) {
				t.Errorf("%s: %d of %d rows in order, %v", name, next, len(req.Sources), err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: deadlock: %d of %d rows in order", name, next, len(req.Sources))
		}
	}
}

// TestRunSinkError checks that an error from the sink stops the run soon
// and is returned, with no block handed over after Run returns and no
// goroutine left behind.
func TestRunSinkError(t *testing.T) {
	e := grid8(t)
	boom := errors.New("boom")
	const workers, failAt = 3, 3
	for _, name := range append(searchAlgorithms, backend.AlgorithmFloydWarshall) {
		req, err := requestFor(e, backend.Algorithm{Name: name}, allSources(e.N), false)
		if err != nil {
			t.Fatal(err)
		}
		b := New(workers)
		b.blockValues = int(e.N)
		before := runtime.NumGoroutine()
		var calls atomic.Int32
		var returned atomic.Bool
		err = b.Run(context.Background(), req, func(rows *results.Rows) error {
			defer rows.Release()
			if returned.Load() {
				t.Errorf("%s: a block reached the sink after Run returned", name)
			}
			if calls.Add(1) == failAt {
				return boom
			}
			return nil
		})
		returned.Store(true)
		if !errors.Is(err, boom) {
			t.Errorf("%s: got %v, want the sink's error", name, err)
		}
		// Each other worker may have been about to hand over a block.
		if c := calls.Load(); c > failAt+workers-1 {
			t.Errorf("%s: %d blocks handed over, the sink failed on block %d", name, c, failAt)
		}
		checkNoLeak(t, before)
	}
}

// TestRunCancelled checks that a cancelled context gives its error before
// any block.
func TestRunCancelled(t *testing.T) {
	e := grid8(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, name := range append(searchAlgorithms, backend.AlgorithmFloydWarshall) {
		req, err := requestFor(e, backend.Algorithm{Name: name}, allSources(e.N), false)
		if err != nil {
			t.Fatal(err)
		}
		err = New(2).Run(ctx, req, func(rows *results.Rows) error {
			t.Errorf("%s: a block reached the sink of a cancelled run", name)
			rows.Release()
			return nil
		})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s: got %v, want context.Canceled", name, err)
		}
	}
}
