package compute

import (
	"fmt"
	"sync/atomic"

	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/internal/tables"
)

// pairAnswers is the consumer of a pair list run's blocks: the searches
// come grouped by source (pairList), and each cell goes straight to the
// row of its pair, so that the distances table, written once the run is
// over (Close), lists the pairs in file order. O(pairs) memory: a
// distance and, with parents, a parent per row, and a metric with
// compute.metrics.
type pairAnswers struct {
	list   *pairList
	cutoff int64
	// dist[i] is row i's distance, paths.Unreachable where there is none
	// or it lies beyond the cutoff; parent[i] its target's parent,
	// paths.NoParent for none (nil without parents).
	dist   []int64
	parent []int32
	// metric[i] is row i's metric, with compute.metrics (else nil).
	metric []int64
	cells  atomic.Int64 // answered so far
	table  *pairTable
	files  []tables.FileInfo
}

// newPairAnswers returns the consumer of the searches of list, cells
// beyond cutoff (unless results.NoCutoff) answered as none, which writes
// the distances table as table says.
func newPairAnswers(list *pairList, cutoff int64, withParents bool, table *pairTable) *pairAnswers {
	a := &pairAnswers{list: list, cutoff: cutoff, dist: make([]int64, list.len()), table: table}
	if withParents {
		a.parent = make([]int32, list.len())
	}
	if table.metric.Name != "" {
		a.metric = make([]int64, list.len())
	}
	return a
}

// Put scatters the block's cells into their rows and releases it. Safe
// for concurrent use: every row is one search's cell, written once.
// O(cells).
func (a *pairAnswers) Put(rows *results.Rows) error {
	defer rows.Release()
	if rows.Sparse() {
		return fmt.Errorf("pipeline: a sparse block for a pair list")
	}
	dist := rows.Distances()
	cells := 0
	for r := range rows.Len() {
		k := rows.First + r
		lo, hi := rows.Span(r)
		at := a.list.rows[k]
		if hi-lo != len(at) {
			return fmt.Errorf("pipeline: source %d of the pair list has %d cells for %d targets", rows.Sources[r], hi-lo, len(at))
		}
		for j, i := range at {
			d, ok := dist.Within(lo+j, a.cutoff)
			if !ok {
				d = paths.Unreachable
			}
			a.dist[i] = d
			if a.metric != nil && ok {
				a.metric[i] = rows.Metric64[lo+j]
			}
			if a.parent != nil {
				a.parent[i] = paths.NoParent
				if ok && rows.Parent != nil {
					a.parent[i] = rows.Parent[lo+j]
				}
			}
		}
		cells += len(at)
	}
	a.cells.Add(int64(cells))
	return nil
}

// Close checks that every pair was answered and writes the distances
// table.
func (a *pairAnswers) Close() error {
	if n := a.cells.Load(); n != int64(a.list.len()) {
		return fmt.Errorf("pipeline: %d of the pair list's %d pairs answered", n, a.list.len())
	}
	files, err := a.table.write(a.list, a.dist, a.metric, a.parent)
	if err != nil {
		return err
	}
	a.files = files
	return nil
}

// Abort drops the answers.
func (a *pairAnswers) Abort() { a.dist, a.metric, a.parent = nil, nil, nil }

// Files returns the distances table's parts, once Close has returned nil.
func (a *pairAnswers) Files() []tables.FileInfo { return a.files }
