package cpu

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/pathflow/pathflow/internal/hierarchy"
)

// chSweep is one PHAST sweep whose rows several blocks copy: the first
// worker to need it runs it, the others wait for done; the last block
// to copy its rows gives its state back.
type chSweep struct {
	started bool // guarded by chSweeps.mu
	done    chan struct{}
	sweep   *hierarchy.TreeSweep
	err     error
	// left counts the blocks that have not copied their rows yet.
	left atomic.Int32
}

// chSweeps are the sweeps of a whole-tree run and the few states they
// take turns in: at most held sweeps exist at once, made on first use and
// reused, so the run's sweeps hold held x TreeSweepBytes however many
// sources and workers (a state counts its narrow lanes: one whose
// distances reach 2^31 moves to wide ones, twice the bytes, for the rest
// of the run; the collector's limit is soft). States go to the sweeps
// strictly in order: sweep
// i gets one only after sweep i-1 did, so a sweep never waits on a later
// one, whose blocks the pool may not have handed out yet.
type chSweeps struct {
	h    *hierarchy.Hierarchy
	all  []*chSweep
	held int
	// workers is how many goroutines each sweep settles its levels on:
	// the run's workers shared among the held states, so that a run
	// bounded to one state still sweeps on every core.
	workers int

	mu   sync.Mutex
	wake *sync.Cond
	free []*hierarchy.TreeSweep
	made int
	next int // the next sweep to get a state
}

// newChSweeps returns the sweeps of count sources, each serving
// TreeLanes of them, taking turns in at most held states, for a run of
// workers goroutines.
func newChSweeps(h *hierarchy.Hierarchy, count, held, workers int) *chSweeps {
	held = max(1, held)
	s := &chSweeps{h: h, all: make([]*chSweep, (count+hierarchy.TreeLanes-1)/hierarchy.TreeLanes), held: held,
		workers: max(1, workers/held)}
	s.wake = sync.NewCond(&s.mu)
	for i := range s.all {
		s.all[i] = &chSweep{done: make(chan struct{})}
	}
	return s
}

// ready reports whether sweep i could get a state now; s.mu held.
func (s *chSweeps) ready(i int) bool {
	return s.next == i && (len(s.free) > 0 || s.made < s.held)
}

// take gives sweep i a state, waiting for its turn and a free state when
// wait is set, or returns false unless ctx ends meanwhile (then its error).
// It reports false without waiting when sweep i has already been started,
// or, without wait, when it could not start it at once. s.mu is not held.
func (s *chSweeps) take(ctx context.Context, i int, wait bool) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sw := s.all[i]
	if sw.started || (!wait && !s.ready(i)) {
		return false, nil
	}
	sw.started = true
	for !s.ready(i) {
		if err := ctx.Err(); err != nil {
			return true, err
		}
		s.wake.Wait()
	}
	if n := len(s.free); n > 0 {
		sw.sweep, s.free = s.free[n-1], s.free[:n-1]
	} else {
		sw.sweep = s.h.NewTreeSweep(s.workers)
		s.made++
	}
	s.next++
	s.wake.Broadcast()
	return true, nil
}

// wakeOnDone wakes the workers waiting for a state once ctx ends; the
// returned function stops it.
func (s *chSweeps) wakeOnDone(ctx context.Context) (stop func() bool) {
	return context.AfterFunc(ctx, func() {
		s.mu.Lock()
		s.wake.Broadcast()
		s.mu.Unlock()
	})
}

// run runs sweep i over sources, if this worker is the one to start it:
// wait says whether it may wait for a state (a worker holding a block of
// sweep i) or must give up at once (one sweeping ahead). It reports
// whether it ran it.
func (s *chSweeps) run(ctx context.Context, i int, sources []int32, wait bool) bool {
	sw := s.all[i]
	started, err := s.take(ctx, i, wait)
	if !started {
		return false
	}
	defer close(sw.done)
	if err != nil {
		sw.err = fmt.Errorf("cpu: %w", err)
		return true
	}
	if err := sw.sweep.Run(sources); err != nil {
		sw.err = fmt.Errorf("cpu: ch: %w", err)
	}
	return true
}

// copied records that a block of sweep i copied its rows; the last one
// gives the sweep's state to the next sweep.
func (s *chSweeps) copied(i int) {
	sw := s.all[i]
	if sw.left.Add(-1) != 0 {
		return
	}
	s.mu.Lock()
	s.free = append(s.free, sw.sweep)
	sw.sweep = nil
	s.wake.Broadcast()
	s.mu.Unlock()
}
