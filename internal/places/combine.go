package places

import (
	"fmt"
	"sync"

	"github.com/pathflow/pathflow/internal/parallel"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/internal/snap"
)

// NoPath marks a pair of places without an answer in a row a Combiner
// emits: a place that did not snap, or no route between them.
const NoPath = int64(-1)

// Emit receives the answers of origin i, in origin order: row[j] is the
// weight of the trip to destination j, NoPath where there is none, and
// metric[j] its metric (undefined where row[j] is NoPath; metric is nil
// when the run reports none). The rows are Emit's to keep.
type Emit func(i int, row, metric []int64) error

// Combiner is the results.Consumer of a run over the seeds of a table of
// places (SeedsOf): it keeps each seed source's row of distances to the
// seed targets until every origin starting from that seed is answered,
// and hands the origins' rows to emit in origin order. With a metric,
// each trip is the lightest by (weight, metric) compared
// lexicographically, and its metric is reported beside it. An origin is
// answered once the rows of all its seeds are in: blocks come in any
// order, but roughly in source order, so few rows wait. Memory: the
// waiting seed rows (8 bytes per seed target each) and the answered
// origins waiting for an earlier one (8 bytes per destination), twice
// that with a metric.
type Combiner struct {
	origins, destinations []snap.Place
	seeds                 *Seeds
	emit                  Emit
	workers               int

	// seedRows holds the seed rows until the origins using them are
	// answered.
	*seedRows
	// originSeeds[i] is origin i's seeds as (source index, weight,
	// metric), destSeeds[j] destination j's as (target index, weight,
	// metric).
	originSeeds, destSeeds [][]indexedSeed
	// arcMetric is every arc's metric, nil when the run reports none.
	arcMetric []int32

	mu       sync.Mutex
	answered map[int]answeredRow
	next     int
	err      error
}

type indexedSeed struct {
	at             int32
	weight, metric int64
}

// answeredRow is an origin's answers waiting for the earlier origins.
type answeredRow struct {
	weights, metrics []int64
}

// NewCombiner makes the consumer for a run whose request's sources and
// targets are seeds.Sources and seeds.Targets; the origins a block
// completes are combined on up to workers goroutines. arcMetric is the
// metric of every arc (graph.EdgeList.Metric) when the run reports one,
// its blocks then carrying the metric beside each distance
// (results.Metric); nil otherwise.
func NewCombiner(origins, destinations []snap.Place, seeds *Seeds, arcMetric []int32, emit Emit, workers int) *Combiner {
	c := &Combiner{
		origins: origins, destinations: destinations, seeds: seeds, emit: emit, workers: max(workers, 1),
		seedRows:    newSeedRows(len(seeds.Sources), len(origins)),
		originSeeds: make([][]indexedSeed, len(origins)), destSeeds: make([][]indexedSeed, len(destinations)),
		arcMetric: arcMetric, answered: map[int]answeredRow{},
	}
	for i := range origins {
		p := &origins[i]
		var m seedMetrics
		if arcMetric != nil && p.OK {
			m = metricsOf(p, arcMetric)
		}
		for n, s := range p.Out {
			k := seeds.sourceAt[s.Vertex]
			seed := indexedSeed{at: k, weight: s.Weight}
			if m.out != nil {
				seed.metric = m.out[n]
			}
			c.originSeeds[i] = append(c.originSeeds[i], seed)
			c.use(i, k)
		}
	}
	for j := range destinations {
		q := &destinations[j]
		var m seedMetrics
		if arcMetric != nil && q.OK {
			m = metricsOf(q, arcMetric)
		}
		for n, s := range q.In {
			seed := indexedSeed{at: seeds.targetAt[s.Vertex], weight: s.Weight}
			if m.in != nil {
				seed.metric = m.in[n]
			}
			c.destSeeds[j] = append(c.destSeeds[j], seed)
		}
	}
	return c
}

// Start answers the origins that need no search: those that did not
// snap, whose rows are all NoPath, before the first block. Call it once,
// before the run.
func (c *Combiner) Start() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := range c.origins {
		if c.missing[i] == 0 {
			c.answered[i] = c.combine(i)
		}
	}
	return c.flush()
}

// Put takes a block of seed rows over. Safe for concurrent use: the rows
// are recorded under a lock, and the origins they complete are answered
// outside it, so that concurrent blocks combine on their own cores.
func (c *Combiner) Put(rows *results.Rows) error {
	defer rows.Release()
	if rows.Width != len(c.seeds.Targets) || rows.Sparse() {
		return fmt.Errorf("places: a block of %d columns for %d seed targets", rows.Width, len(c.seeds.Targets))
	}
	if err := checkMetric(rows, c.arcMetric != nil); err != nil {
		return err
	}
	copies, metrics := copyRows(rows)
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return c.err
	}
	ready := c.record(rows.First, copies, metrics)
	c.mu.Unlock()
	// A backend that hands over large blocks from one goroutine (a GPU's)
	// would leave the combining to it alone: the origins are spread over
	// the workers.
	answers := make([]answeredRow, len(ready))
	parallel.For(len(ready), c.workers, func(n int) { answers[n] = c.combine(ready[n]) })
	c.mu.Lock()
	defer c.mu.Unlock()
	for n, i := range ready {
		c.answered[i] = answers[n]
		c.release(i)
	}
	if c.err == nil {
		c.err = c.flush()
	}
	return c.err
}

// combine answers origin i from its seeds' rows: for each destination, the
// best of every seed pair and of the trip along a shared road piece, by
// weight, or by (weight, metric) with a metric.
func (c *Combiner) combine(i int) answeredRow {
	p := &c.origins[i]
	out := make([]int64, len(c.destinations))
	var metricOut []int64
	if c.arcMetric != nil {
		metricOut = make([]int64, len(c.destinations))
	}
	seedRows := make([][]int64, len(c.originSeeds[i]))
	seedMetricRows := make([][]int64, len(c.originSeeds[i]))
	for n, s := range c.originSeeds[i] {
		seedRows[n], seedMetricRows[n] = c.rows[s.at], c.metricRows[s.at]
	}
	for j := range out {
		out[j] = NoPath
		q := &c.destinations[j]
		if !p.OK || !q.OK {
			continue
		}
		best, bestMetric := NoPath, int64(0)
		for n, s := range c.originSeeds[i] {
			row, metricRow := seedRows[n], seedMetricRows[n]
			for _, t := range c.destSeeds[j] {
				d := row[t.at]
				if d == unreachable {
					continue
				}
				w, m := s.weight+d+t.weight, int64(0)
				if metricRow != nil {
					m = s.metric + metricRow[t.at] + t.metric
				}
				if lighter(w, m, best, bestMetric) {
					best, bestMetric = w, m
				}
			}
		}
		if w, ok := snap.Direct(p, q); ok {
			m := int64(0)
			if metricOut != nil {
				m = directMetric(p, q, c.arcMetric)
			}
			if lighter(w, m, best, bestMetric) {
				best, bestMetric = w, m
			}
		}
		out[j] = best
		if metricOut != nil {
			metricOut[j] = bestMetric
		}
	}
	return answeredRow{weights: out, metrics: metricOut}
}

// flush emits the answered origins that are next in order.
func (c *Combiner) flush() error {
	for {
		row, ok := c.answered[c.next]
		if !ok {
			return nil
		}
		delete(c.answered, c.next)
		if err := c.emit(c.next, row.weights, row.metrics); err != nil {
			return err
		}
		c.next++
	}
}

// Close checks that every origin was answered.
func (c *Combiner) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return c.err
	}
	if c.next != len(c.origins) {
		return fmt.Errorf("places: %d of %d origins answered", c.next, len(c.origins))
	}
	return nil
}

// Abort drops the waiting rows.
func (c *Combiner) Abort() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.rows, c.metricRows, c.answered = nil, nil, nil
}

// unreachable is the marker Distances.Weight gives a cell without a path.
const unreachable = paths.Unreachable
