package results

import (
	"testing"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
)

// TestSplitKeys splits key sums into distances and metrics, leaves
// unreachable cells unreachable with metric 0, and refuses a block in
// which any one cell, wherever it lies, is not proven exact.
func TestSplitKeys(t *testing.T) {
	bound := graph.KeyBound{Ratio: 8}
	rows := &Rows{Sources: []int32{4, 9}, Width: 3, Dist64: []int64{
		graph.Key(0, 0), graph.Key(10, 7), paths.Unreachable,
		graph.Key(5, 3), paths.Unreachable, graph.Key(100, 250),
	}}
	if err := SplitKeys(rows, bound); err != nil {
		t.Fatal(err)
	}
	wantD := []int64{0, 10, paths.Unreachable, 5, paths.Unreachable, 100}
	wantM := []int64{0, 7, 0, 3, 0, 250}
	for i := range wantD {
		if rows.Dist64[i] != wantD[i] || rows.Metric64[i] != wantM[i] {
			t.Fatalf("cell %d: (%d, %d), want (%d, %d)", i, rows.Dist64[i], rows.Metric64[i], wantD[i], wantM[i])
		}
	}
	// A weight whose metric bound passes 2^32 (8 x 2^30), in
	// the middle of the second row, or a negative key, fails the block.
	for _, bad := range []int64{graph.Key(1<<30-10, 0), -5} {
		rows := &Rows{Sources: []int32{4, 9}, Width: 3, Dist64: []int64{1, 2, 3, 4, bad, 6}}
		if err := SplitKeys(rows, bound); err == nil {
			t.Errorf("key %d passed", bad)
		}
	}
}

// TestSplitKeysOfAnEmptyBlockHoldsTheMetric: a block without cells (its
// rows' target lists all empty) still holds the metric column, as every
// block of a metric run must.
func TestSplitKeysOfAnEmptyBlockHoldsTheMetric(t *testing.T) {
	rows := &Rows{Sources: []int32{1, 2}, Offsets: []int{0, 0, 0}, Dist64: []int64{}}
	if err := SplitKeys(rows, graph.KeyBound{Ratio: 8}); err != nil {
		t.Fatal(err)
	}
	if !rows.Has(Metric) || len(rows.Metric64) != 0 {
		t.Fatalf("metric column held %v with %d values, want an empty one", rows.Has(Metric), len(rows.Metric64))
	}
}
