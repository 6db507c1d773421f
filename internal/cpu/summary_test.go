package cpu

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/generate"
	"github.com/pathflow/pathflow/internal/results"
)

// A request read only as summaries (results.Shape.SummaryOnly) gets every
// row as one, in every algorithm and shape (whole trees of ch, its
// targets, cutoffs, Dijkstra's sparse rows), equal to the reduction of
// the same run's cells; the blocks of cells go back to the pool before
// the consumer sees them.
func TestRunSummaryOnlyEqualsTheCellsReduced(t *testing.T) {
	e, _, err := generate.Road(12, 5)
	if err != nil {
		t.Fatal(err)
	}
	n := e.N
	sources := []int32{0, 7, n - 1, 40, 41, 100}
	for _, name := range []string{backend.AlgorithmCH, backend.AlgorithmDijkstra, backend.AlgorithmBellmanFord, backend.AlgorithmFloydWarshall} {
		for _, shape := range []results.Shape{
			{MaxDistance: results.NoCutoff},
			{MaxDistance: 3000},
			{MaxDistance: 3000, CutoffCells: true},
			{Targets: []int32{5, 0, 7, 7, n - 2}, MaxDistance: results.NoCutoff},
			{SourceTargets: [][]int32{{1}, {7, 8}, {}, {40}, {0, 1, 2}, {3}}, MaxDistance: 2000},
		} {
			label := fmt.Sprintf("%s, targets %v / %v, cutoff %d", name, shape.Targets, shape.SourceTargets, shape.MaxDistance)
			req, err := requestFor(e, backend.Algorithm{Name: name}, sources, false)
			if err != nil {
				t.Fatal(err)
			}
			shape.Sources = sources
			req.Shape = shape
			b := New(2)
			b.blockValues = 2 * int(n)
			want := make([]results.RowSummary, len(sources))
			err = b.Run(context.Background(), req, func(rows *results.Rows) error {
				defer rows.Release()
				if rows.Summarized() {
					return fmt.Errorf("rows %d.. came summarized for a result of cells", rows.First)
				}
				for i := range rows.Len() {
					want[rows.First+i] = req.SummarizeRow(rows, i)
				}
				return nil
			})
			if err != nil {
				t.Fatalf("%s: %v", label, err)
			}
			req.SummaryOnly = true
			got := make([]results.RowSummary, len(sources))
			var mu sync.Mutex
			err = b.Run(context.Background(), req, func(rows *results.Rows) error {
				defer rows.Release()
				if err := req.CheckRows(rows); err != nil {
					return err
				}
				if !rows.Summarized() {
					return fmt.Errorf("rows %d.. came as cells", rows.First)
				}
				mu.Lock()
				defer mu.Unlock()
				copy(got[rows.First:], rows.Summaries)
				return nil
			})
			if err != nil {
				t.Fatalf("%s, summaries: %v", label, err)
			}
			for i := range got {
				if got[i] != want[i] || (!shape.Narrowed() && got[i].Reached == 0) {
					t.Errorf("%s: row %d: %+v, want %+v (and the source reached in whole rows)", label, i, got[i], want[i])
				}
			}
		}
	}
}
