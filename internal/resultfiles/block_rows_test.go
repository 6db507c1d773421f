package resultfiles

import (
	"fmt"
	"slices"
	"testing"

	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/tables/tablestest"
)

// A block larger than cellsPerChunk is read on several goroutines at once
// (forBlockRows): the summaries and the named vertices are those of the
// trees read one at a time, for blocks of every size.
func TestLargeBlocksReadOnEveryCore(t *testing.T) {
	t.Parallel()
	rng := tablestest.NewRand(11)
	const n = 40_000 // 64 trees: 2.6M cells, two chunks or more a block
	trees := make([]*paths.Tree, 64)
	for i := range trees {
		trees[i] = randomTree(rng, n, int32(rng.IntN(n)), true, rng.Float64())
	}
	shape := longShape(trees, true)
	want := NewVertexSet(n)
	want.AddAll(shape.Sources)
	for _, tr := range trees {
		for v, d := range tr.Dist {
			if d != paths.Unreachable {
				want.Add(int32(v))
			}
			if p := tr.Parent[v]; p != paths.NoParent {
				want.Add(p)
			}
		}
	}
	for _, per := range []int{1, 7, len(trees)} {
		what := fmt.Sprintf("%d trees a block", per)
		got := summarizeTrees(t, shape, trees, false, per, rng)
		for i, tr := range trees {
			sameSummary(t, what, got[i], Summarize(tr))
		}
		set := NewVertexSet(n)
		cv, err := NewCellVertices(shape, set)
		if err != nil {
			t.Fatal(err)
		}
		if err := putShuffled(cv, shapeBlocks(trees, shape, per, false), rng); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(set.IDs(), want.IDs()) {
			t.Errorf("%s: %d vertices named, want %d", what, len(set.IDs()), len(want.IDs()))
		}
	}
}
