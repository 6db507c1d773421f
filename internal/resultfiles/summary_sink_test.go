package resultfiles

import (
	"fmt"
	"math"
	"testing"

	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/internal/tables/tablestest"
)

// sameSummary fails the test unless got is want, closeness bit for bit.
func sameSummary(t *testing.T, what string, got, want SummaryRow) {
	t.Helper()
	if got.Source != want.Source || got.Reachable != want.Reachable || got.Eccentricity != want.Eccentricity ||
		math.Float64bits(got.Closeness) != math.Float64bits(want.Closeness) {
		t.Errorf("%s: summary %+v, want %+v", what, got, want)
	}
}

// Without targets or cutoff the summary rows are Summarize's, bit for
// bit, however the rows were cut into blocks and in whatever order they
// came.
func TestSummarySinkMatchesSummarize(t *testing.T) {
	t.Parallel()
	for _, seed := range tablestest.Seeds(t) {
		rng := tablestest.NewRand(seed)
		n := 1 + rng.IntN(400)
		narrow := rng.IntN(2) == 0
		trees := randomTrees(rng, n, 10, narrow)
		for _, layout := range []Layout{Long, Wide} {
			shape := longShape(trees, false)
			shape.Layout = layout
			got := summarizeTrees(t, shape, trees, narrow, 1+rng.IntN(4), rng)
			if len(got) != len(trees) {
				t.Fatalf("%d summary rows for %d sources", len(got), len(trees))
			}
			for i, tr := range trees {
				sameSummary(t, fmt.Sprintf("seed %d, %v, source %d", seed, layout, i), got[i], Summarize(tr))
			}
		}
	}
}

// Summaries worked out by hand: with targets and a cutoff they cover the
// cells written; without, they are Summarize's also where the distance sum
// overflows an int64 or is negative, from int32 and int64 blocks alike.
func TestSummarySinkByHand(t *testing.T) {
	t.Parallel()
	const u = paths.Unreachable
	trees := []*paths.Tree{
		{Source: 2, Dist: []int64{5, -1, 0, 3, 10, u}},
		{Source: 0, Dist: []int64{0, 6, 7, u, 1, 4}},
		{Source: 5, Dist: []int64{9, 8, u, u, 12, 0}},
		{Source: 4, Dist: []int64{u, -1, -3, 2, 0, 1}},
	}
	shape := longShape(trees, false)
	shape.Targets, shape.MaxDistance = []int32{4, 2, 0, 1}, 6
	want := []SummaryRow{
		// Vertices 2 (itself), 0 (5) and 1 (-1); 4 is beyond the cutoff.
		{Source: 2, Reachable: 3, Eccentricity: 5, Closeness: 2.0 / 3 * 2 / 4},
		// Vertices 4 (1), 0 (itself) and 1 (6, the cutoff); 2 is beyond it.
		{Source: 0, Reachable: 3, Eccentricity: 6, Closeness: 2.0 / 3 * 2 / 7},
		// Nothing within the cutoff, itself not a target.
		{Source: 5, Reachable: 0, Eccentricity: NoEccentricity, Closeness: math.NaN()},
		// Vertices 4 (itself, not its own eccentricity), 2 (-3) and 1 (-1):
		// a negative sum has no closeness.
		{Source: 4, Reachable: 3, Eccentricity: -1, Closeness: math.NaN()},
	}
	unfiltered := []struct {
		tree *paths.Tree
		want SummaryRow
	}{
		// Five vertices at 2^62: the sum carries past 64 bits.
		{&paths.Tree{Source: 0, Dist: []int64{0, 1 << 62, 1 << 62, 1 << 62, 1 << 62, 1 << 62}},
			SummaryRow{Source: 0, Reachable: 6, Eccentricity: 1 << 62, Closeness: 0x1p-62}},
		{&paths.Tree{Source: 1, Dist: []int64{-5, 0, -7, 3, u, u}},
			SummaryRow{Source: 1, Reachable: 4, Eccentricity: 3, Closeness: math.NaN()}},
	}
	for _, layout := range []Layout{Long, Wide} {
		for _, narrow := range []bool{false, true} {
			shape.Layout = layout
			got := summarizeTrees(t, shape, trees, narrow, 2, tablestest.NewRand(1))
			if len(got) != len(want) {
				t.Fatalf("%v, int32 %v: %d summary rows, want %d", layout, narrow, len(got), len(want))
			}
			for i, got := range got {
				w := want[i]
				if got.Source != w.Source || got.Reachable != w.Reachable || got.Eccentricity != w.Eccentricity ||
					math.IsNaN(got.Closeness) != math.IsNaN(w.Closeness) || math.Abs(got.Closeness-w.Closeness) > 1e-15 {
					t.Errorf("%v, int32 %v: summary %+v, want %+v", layout, narrow, got, w)
				}
			}
			for _, c := range unfiltered {
				trees := []*paths.Tree{c.tree}
				if narrow && !fitsInt32(trees) {
					continue
				}
				sameSummary(t, "Summarize", Summarize(c.tree), c.want)
				shape := longShape(trees, false)
				shape.Layout = layout
				got := summarizeTrees(t, shape, trees, narrow, 1, tablestest.NewRand(1))
				sameSummary(t, fmt.Sprintf("%v, int32 %v", layout, narrow), got[0], c.want)
			}
		}
	}
}

// Blocks reduced to their summaries where they were made (a result with
// SummaryOnly) give the rows that their cells give, bit for bit, in any
// order and cut; a block of summaries is released, and refused by a
// shape that reads cells.
func TestSummarySinkTakesSummarizedBlocks(t *testing.T) {
	t.Parallel()
	for _, seed := range tablestest.Seeds(t) {
		rng := tablestest.NewRand(seed)
		n := 1 + rng.IntN(300)
		narrow := rng.IntN(2) == 0
		trees := randomTrees(rng, n, 9, narrow)
		shape := longShape(trees, false)
		shape.SummaryOnly = true
		blocks := shapeBlocks(trees, shape, 1+rng.IntN(4), narrow)
		summarized := make([]*results.Rows, len(blocks))
		for i, b := range blocks {
			summarized[i] = shape.SummarizeBlock(b)
		}
		counted := countReleases(summarized...)
		s, err := NewSummarySink(shape)
		if err != nil {
			t.Fatal(err)
		}
		if err := putShuffled(s, summarized, rng); err != nil {
			t.Fatal(err)
		}
		for i, tr := range trees {
			sameSummary(t, fmt.Sprintf("seed %d, source %d", seed, i), s.Rows()[i], Summarize(tr))
		}
		for _, b := range summarized {
			if counted.n[b] != 1 {
				t.Fatalf("a block of summaries was released %d times", counted.n[b])
			}
		}
		shape.SummaryOnly = false
		cells, _ := NewSummarySink(shape)
		if err := cells.Put(shape.SummarizeBlock(blocks[0])); err == nil {
			t.Fatal("a summary of cells took a block of summaries")
		}
	}
}
