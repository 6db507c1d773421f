package compute

import "sync"

// answerGate lets the writer of a table in file order wait for rows that
// the searches answer in another order (path requests by source, routes
// between places by seed), and ends both sides at the first error: the
// writer's wait and the searches' next block return it.
type answerGate struct {
	// mu guards answered and stopped; changed broadcasts their changes to
	// a waiting writer.
	mu       sync.Mutex
	changed  *sync.Cond
	answered []bool
	stopped  error // why the run ends early, or nil
}

// newAnswerGate returns a gate over n rows, none answered.
func newAnswerGate(n int) *answerGate {
	g := &answerGate{answered: make([]bool, n)}
	g.changed = sync.NewCond(&g.mu)
	return g
}

// answer marks rows as answered and wakes the writer. O(len(rows)).
func (g *answerGate) answer(rows ...int) {
	if len(rows) == 0 {
		return
	}
	g.mu.Lock()
	for _, k := range rows {
		g.answered[k] = true
	}
	g.mu.Unlock()
	g.changed.Broadcast()
}

// wait blocks until row k is answered. It returns the error that stopped
// the run instead, if one does first.
func (g *answerGate) wait(k int) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	for !g.answered[k] && g.stopped == nil {
		g.changed.Wait()
	}
	if g.answered[k] {
		return nil
	}
	return g.stopped
}

// stop ends the run early for err: the writer's wait and the next block
// return it. The first error is kept.
func (g *answerGate) stop(err error) {
	g.mu.Lock()
	if g.stopped == nil {
		g.stopped = err
	}
	g.mu.Unlock()
	g.changed.Broadcast()
}

// stoppedBy returns the error that stopped the run, or nil.
func (g *answerGate) stoppedBy() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.stopped
}
