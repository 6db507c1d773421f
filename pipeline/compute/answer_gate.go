package compute

import (
	"context"
	"sync"
	"time"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/pipeline/runlog"
	"github.com/pathflow/pathflow/pipeline/stageerr"
)

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

// gatedAnswers is the consumer of searches whose rows a writer reads
// as they are answered (pathAnswers, tripRouteAnswers).
type gatedAnswers interface {
	results.Consumer
	stop(err error)
}

// searchWhileWriting runs write (the table that reads answers' rows as
// they are answered) on a goroutine of its own while the searches of
// shape answer into answers, then, once every answer is in, after (the
// run's other table, which may read every answer) on the calling
// goroutine beside the writer's tail, and waits for both. The writer
// trails the searches (100,000 Delaware routes: its last 0.2 s on one
// core), so the other table is written on the core it leaves idle rather
// than after it. A failed write stops the searches at their next block,
// and failed searches stop the writer; the searches' error is the run's.
// It sets stages["compute"] to the searches' time, and returns the time
// the two tables took after them.
func (r *computeRun) searchWhileWriting(ctx context.Context, be backend.Backend, req backend.Request, shape results.Shape,
	progress *runlog.Progress, answers gatedAnswers, write, after func() error, stages map[string]float64) (tail float64, err error) {
	written := make(chan struct{})
	var writeErr error
	go func() {
		defer close(written)
		if writeErr = write(); writeErr != nil {
			answers.stop(writeErr) // the searches end at their next block
		}
	}()
	start := time.Now()
	err = r.searchSeeds(ctx, be, req, shape, progress, answers)
	if err == nil {
		if cerr := answers.Close(); cerr != nil {
			err = &stageerr.OutputError{Err: cerr}
		}
	}
	if err != nil {
		// A failed write ended the searches through Put: err carries it.
		answers.stop(err)
		<-written
		return 0, err
	}
	stages["compute"] = time.Since(start).Seconds()
	progress.Finish()
	begin := time.Now()
	afterErr := after()
	<-written
	if writeErr != nil {
		return 0, &stageerr.OutputError{Err: writeErr}
	}
	if afterErr != nil {
		return 0, &stageerr.OutputError{Err: afterErr}
	}
	return time.Since(begin).Seconds(), nil
}
