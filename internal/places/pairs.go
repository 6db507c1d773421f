package places

import (
	"fmt"
	"sync"

	"github.com/pathflow/pathflow/internal/parallel"
	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/internal/snap"
)

// PairSeeds are the vertices a list of trips between places is computed
// between: Sources, every vertex a trip's origin can start toward, in the
// order the trips first name them; Targets[k], the vertices the
// destinations of the trips starting from Sources[k] can be reached from,
// each once. A run asks the searches for exactly these pairs of seeds (a
// request with SourceTargets), not for every source x target.
type PairSeeds struct {
	Sources []int32
	Targets [][]int32
	// sourceAt gives each seed source's index; targetAt[k] each of
	// Sources[k]'s targets' column in its row.
	sourceAt map[int32]int32
	targetAt []map[int32]int32
}

// PairSeedsOf collects the seeds of trips from origins[i] to
// destinations[i]. O(trips).
func PairSeedsOf(origins, destinations []snap.Place) *PairSeeds {
	s := &PairSeeds{sourceAt: map[int32]int32{}}
	for i, o := range origins {
		if !searched(origins, destinations, i) {
			continue
		}
		for _, seed := range o.Out {
			k, ok := s.sourceAt[seed.Vertex]
			if !ok {
				k = int32(len(s.Sources))
				s.sourceAt[seed.Vertex] = k
				s.Sources = append(s.Sources, seed.Vertex)
				s.Targets = append(s.Targets, nil)
				s.targetAt = append(s.targetAt, map[int32]int32{})
			}
			for _, t := range destinations[i].In {
				if _, ok := s.targetAt[k][t.Vertex]; !ok {
					s.targetAt[k][t.Vertex] = int32(len(s.Targets[k]))
					s.Targets[k] = append(s.Targets[k], t.Vertex)
				}
			}
		}
	}
	return s
}

// PairCombiner is the results.Consumer of a run over the seeds of a list
// of trips (PairSeedsOf): it keeps each seed source's ragged row until
// every trip starting from it is answered, and answers each trip as the
// best of its seed pairs and of the trip along a shared road piece: by
// weight, or by (weight, metric) compared lexicographically with a
// metric. The answers, one int64 per trip (NoPath where there is none),
// and with a metric the metric of each, are read once the run is over
// (Answers), so the file order needs no waiting.
type PairCombiner struct {
	origins, destinations []snap.Place
	seeds                 *PairSeeds
	workers               int
	// arcMetric is every arc's metric, nil when the run reports none.
	arcMetric []int32

	// seedRows holds the seed rows until the trips using them are
	// answered.
	*seedRows

	mu      sync.Mutex
	answers Answers
	done    int
}

// NewPairCombiner makes the consumer for trips from origins[i] to
// destinations[i]; the trips a block completes are answered on up to
// workers goroutines. arcMetric is the metric of every arc
// (graph.EdgeList.Metric) when the run reports one, its blocks then
// carrying the metric beside each distance (results.Metric); nil
// otherwise.
func NewPairCombiner(origins, destinations []snap.Place, seeds *PairSeeds, arcMetric []int32, workers int) *PairCombiner {
	c := &PairCombiner{
		origins: origins, destinations: destinations, seeds: seeds, workers: max(workers, 1), arcMetric: arcMetric,
		seedRows: newSeedRows(len(seeds.Sources), len(origins)), answers: Answers{Weights: make([]int64, len(origins))},
	}
	if arcMetric != nil {
		c.answers.Metrics = make([]int64, len(origins))
	}
	for i, o := range origins {
		if searched(origins, destinations, i) {
			for _, s := range o.Out {
				c.use(i, seeds.sourceAt[s.Vertex])
			}
		}
		if c.missing[i] == 0 { // a place that did not snap: no search
			c.setAnswer(i)
			c.done++
		}
	}
	return c
}

// Put takes a block of ragged seed rows over. Safe for concurrent use.
func (c *PairCombiner) Put(rows *results.Rows) error {
	defer rows.Release()
	if rows.Sparse() {
		return fmt.Errorf("places: a sparse block for a list of trips")
	}
	for r := range rows.Len() {
		if lo, hi := rows.Span(r); hi-lo != len(c.seeds.Targets[rows.First+r]) {
			return fmt.Errorf("places: seed source %d has %d cells for %d targets", rows.First+r, hi-lo, len(c.seeds.Targets[rows.First+r]))
		}
	}
	if err := checkMetric(rows, c.arcMetric != nil); err != nil {
		return err
	}
	copies, metrics := copyRows(rows)
	c.mu.Lock()
	ready := c.record(rows.First, copies, metrics)
	c.mu.Unlock()
	// The rows ready trips read stay until those trips are released below.
	parallel.For(len(ready), c.workers, func(n int) { c.setAnswer(ready[n]) })
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, i := range ready {
		c.release(i)
	}
	c.done += len(ready)
	return nil
}

// setAnswer records trip i's answer: its place in the answers is its
// own, so trips are answered on several goroutines at once.
func (c *PairCombiner) setAnswer(i int) {
	w, m := c.answer(i)
	c.answers.Weights[i] = w
	if c.answers.Metrics != nil {
		c.answers.Metrics[i] = m
	}
}

// answer is trip i's best weight, NoPath where there is none, and with a
// metric the metric of the trip lightest by (weight, metric).
func (c *PairCombiner) answer(i int) (weight, metric int64) {
	p, q := &c.origins[i], &c.destinations[i]
	if !p.OK || !q.OK {
		return NoPath, 0
	}
	var seedMetric seedMetrics
	if c.arcMetric != nil {
		seedMetric = metricsOf(p, c.arcMetric)
		seedMetric.in = metricsOf(q, c.arcMetric).in
	}
	best, bestMetric := NoPath, int64(0)
	for from, s := range p.Out {
		k := c.seeds.sourceAt[s.Vertex]
		row, metricRow := c.rows[k], c.metricRows[k]
		for to, t := range q.In {
			at := c.seeds.targetAt[k][t.Vertex]
			d := row[at]
			if d == unreachable {
				continue
			}
			w, m := s.Weight+d+t.Weight, int64(0)
			if metricRow != nil {
				m = seedMetric.out[from] + metricRow[at] + seedMetric.in[to]
			}
			if lighter(w, m, best, bestMetric) {
				best, bestMetric = w, m
			}
		}
	}
	if w, ok := snap.Direct(p, q); ok {
		m := int64(0)
		if c.arcMetric != nil {
			m = directMetric(p, q, c.arcMetric)
		}
		if lighter(w, m, best, bestMetric) {
			best, bestMetric = w, m
		}
	}
	return best, bestMetric
}

// Close checks that every trip was answered.
func (c *PairCombiner) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done != len(c.origins) {
		return fmt.Errorf("places: %d of %d trips answered", c.done, len(c.origins))
	}
	return nil
}

// Abort drops the waiting rows.
func (c *PairCombiner) Abort() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.rows, c.metricRows = nil, nil
}

// Answers are the answers of a list of trips, in trip order.
type Answers struct {
	// Weights[i] is trip i's distance, NoPath where there is none.
	Weights []int64
	// Metrics[i] is trip i's metric beside it, undefined where the
	// distance is NoPath; nil when the run reports none.
	Metrics []int64
}

// Answers returns every trip's answer, in trip order, once Close has
// returned nil.
func (c *PairCombiner) Answers() Answers { return c.answers }

// searched reports whether trip i is searched: both its places snapped.
// The others are answered without a search, and need no seeds, so that
// every seed source has targets.
func searched(origins, destinations []snap.Place, i int) bool {
	return origins[i].OK && destinations[i].OK && len(origins[i].Out) > 0 && len(destinations[i].In) > 0
}
