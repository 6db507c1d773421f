package places

import (
	"fmt"

	"github.com/pathflow/pathflow/internal/results"
)

// seedRows keeps the rows of a run's seed sources until every place that
// starts from them (an origin of a table, or a trip) is answered: the
// bookkeeping both combiners share. Its methods other than copyRows are
// called under the combiner's lock.
type seedRows struct {
	// users[k] are the places with seed source k, waiting[k] how many of
	// them are not answered yet, rows[k] the seed's row once in, and
	// metricRows[k] its metric beside each distance (nil when the run
	// reports none).
	users      [][]int32
	waiting    []int32
	rows       [][]int64
	metricRows [][]int64
	// missing[i] counts place i's seed rows not in yet; seedsOf[i] lists
	// its seed sources.
	missing []int32
	seedsOf [][]int32
}

func newSeedRows(sources, places int) *seedRows {
	return &seedRows{
		users: make([][]int32, sources), waiting: make([]int32, sources), rows: make([][]int64, sources),
		metricRows: make([][]int64, sources),
		missing:    make([]int32, places), seedsOf: make([][]int32, places),
	}
}

// use records that place i starts from seed source k.
func (s *seedRows) use(i int, k int32) {
	s.users[k] = append(s.users[k], int32(i))
	s.waiting[k]++
	s.missing[i]++
	s.seedsOf[i] = append(s.seedsOf[i], k)
}

// copyRows copies a block's distances, row by row, paths.Unreachable
// where there is none, and its metrics (nil when the block has none):
// the block goes back to its producer at once, while a row waits for the
// other seeds of its places. Needs no lock.
func copyRows(rows *results.Rows) (copies, metrics [][]int64) {
	dist := rows.Distances()
	copies = make([][]int64, rows.Len())
	if rows.Metric64 != nil {
		metrics = make([][]int64, rows.Len())
	}
	for r := range copies {
		lo, hi := rows.Span(r)
		row := make([]int64, hi-lo)
		for t := range row {
			row[t] = dist.Weight(lo + t)
		}
		copies[r] = row
		if metrics != nil {
			metrics[r] = append([]int64(nil), rows.Metric64[lo:hi]...)
		}
	}
	return copies, metrics
}

// record keeps the rows copied from a block whose first row is seed source
// first, with their metrics (nil for none), and returns the places whose
// seed rows are now all in. A row nobody waits for, or one already in, is
// dropped.
func (s *seedRows) record(first int, copies, metrics [][]int64) []int {
	var ready []int
	for r, row := range copies {
		k := first + r
		if s.waiting[k] == 0 || s.rows[k] != nil {
			continue
		}
		s.rows[k] = row
		if metrics != nil {
			s.metricRows[k] = metrics[r]
		}
		for _, i := range s.users[k] {
			if s.missing[i]--; s.missing[i] == 0 {
				ready = append(ready, int(i))
			}
		}
	}
	return ready
}

// release drops the rows no place waits for once place i is answered.
// Until then, the rows of a ready place stay: no other block frees them,
// so the place is answered outside the lock.
func (s *seedRows) release(i int) {
	for _, k := range s.seedsOf[i] {
		if s.waiting[k]--; s.waiting[k] == 0 {
			s.rows[k], s.metricRows[k] = nil, nil
		}
	}
}

// checkMetric reports a block whose metric column does not match the
// run: one without metrics for a run that reports one (unless it holds
// no cell), or one with metrics for a run that reports none.
func checkMetric(rows *results.Rows, withMetric bool) error {
	switch {
	case withMetric && rows.Metric64 == nil && rows.Distances().Len() > 0:
		return fmt.Errorf("places: a block without the metric the run reports")
	case !withMetric && rows.Metric64 != nil:
		return fmt.Errorf("places: a block with a metric the run does not report")
	}
	return nil
}
