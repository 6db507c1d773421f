package resultfiles

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/internal/tables"
	"github.com/pathflow/pathflow/internal/tables/tablestest"
)

// randomSourceTargets gives each of count sources its own targets among n
// vertices: none to a dozen, repeats and the source itself included.
func randomSourceTargets(rng *rand.Rand, trees []*paths.Tree, n int) [][]int32 {
	out := make([][]int32, len(trees))
	for i, tr := range trees {
		ts := randomTargets(rng, n, rng.IntN(min(n, 12)+1))
		if len(ts) > 1 {
			ts[0], ts[len(ts)-1] = tr.Source, ts[0]
		}
		out[i] = ts
	}
	return out
}

// A pair list's ragged blocks are written a row per pair, in row order,
// parts and row groups cut at fixed counts of pairs: the same files on
// any number of workers and whatever the blocks, the cells the trees
// hold, and a summary over each source's own targets.
func TestResultSinkPairList(t *testing.T) {
	t.Parallel()
	for _, seed := range tablestest.Seeds(t) {
		rng := tablestest.NewRand(seed)
		n := 1 + rng.IntN(200)
		narrow := rng.IntN(2) == 0
		trees := randomTrees(rng, n, 40, narrow)
		shape := longShape(trees, true)
		shape.SourceTargets = randomSourceTargets(rng, trees, n)
		cells := 0
		for _, ts := range shape.SourceTargets {
			cells += len(ts)
		}
		for _, cutoff := range []int64{results.NoCutoff, randomCutoff(rng, trees), 0} {
			shape.MaxDistance = cutoff
			batch, part := 1+rng.IntN(30), int64(1+cells/5+rng.IntN(20))
			var ref []tables.FileInfo
			for run, workers := range []int{1, 3} {
				for _, format := range tableFormats {
					t.Run(fmt.Sprintf("%d/cutoff=%d/%v/workers=%d", seed, cutoff, format, workers), func(t *testing.T) {
						mem := tablestest.CheckedAllocator(t)
						dir := resultDir(t)
						s := writeTrees(t, dir, shape, trees, narrow, 1+rng.IntN(5), rng, tables.WithFormat(format), tables.WithCompression(tables.LZ4),
							tables.WithAllocator(mem), tables.WithBatchRows(batch), tables.WithPartRows(part), tables.WithConcurrency(workers))
						checkFiles(t, s, dir, format, wantGroups(trees, shape, part, batch))
						got, _ := readCells(t, dir, tables.WithAllocator(mem))
						want := wantCells(trees, shape)
						if len(got) != len(want) {
							t.Fatalf("read %d rows, want %d", len(got), len(want))
						}
						for i := range want {
							if got[i] != want[i] {
								t.Fatalf("row %d is %+v, want %+v", i, got[i], want[i])
							}
						}
						if format != tables.Parquet {
							return
						}
						if run == 0 {
							ref = s.Files()
							return
						}
						for k, f := range s.Files() {
							if f.SHA256 != ref[k].SHA256 {
								t.Errorf("part %d differs between 1 and %d workers", k, workers)
							}
						}
					})
				}
			}
		}
	}
}

// The summary of a pair list counts each source's own cells: closeness
// over the pairs of that source.
func TestResultSinkPairListSummary(t *testing.T) {
	t.Parallel()
	const u = paths.Unreachable
	trees := []*paths.Tree{
		{Source: 2, Dist: []int64{5, 1, 0, 3, 10, u}},
		{Source: 0, Dist: []int64{0, 6, 7, u, 1, 4}},
	}
	shape := longShape(trees, false)
	shape.SourceTargets = [][]int32{{4, 2, 0, 5}, {1, 1}}
	got := summarizeTrees(t, shape, trees, false, 1, tablestest.NewRand(1))
	closeness := func(reached, cells, sum float64) float64 { return (reached - 1) / (cells - 1) * (reached - 1) / sum }
	want := []SummaryRow{
		// 4 cells: 10, itself, 5 and one unreachable.
		{Source: 2, Reachable: 3, Eccentricity: 10, Closeness: closeness(3, 4, 15)},
		// 2 cells, both vertex 1 at 6; the source is not among them.
		{Source: 0, Reachable: 2, Eccentricity: 6, Closeness: closeness(2, 2, 12)},
	}
	for i, got := range got {
		sameSummary(t, fmt.Sprintf("source %d", i), got, want[i])
	}
}

// A pair list shape needs the long layout, no shared targets and a target
// list per source; blocks must be ragged to match.
func TestNewResultSinkRejectsBadPairLists(t *testing.T) {
	trees := []*paths.Tree{{Source: 0, Dist: []int64{0, 1}, Parent: []int32{-1, 0}}}
	for name, edit := range map[string]func(*ResultShape){
		"wide":             func(s *ResultShape) { s.Layout = Wide },
		"shared targets":   func(s *ResultShape) { s.Targets = []int32{1} },
		"lists short":      func(s *ResultShape) { s.SourceTargets = [][]int32{} },
		"target too large": func(s *ResultShape) { s.SourceTargets = [][]int32{{2}} },
	} {
		shape := longShape(trees, true)
		shape.SourceTargets = [][]int32{{1, 0}}
		edit(&shape)
		if _, err := NewResultSink(resultDir(t), shape, nil, nil); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	shape := longShape(trees, true)
	shape.SourceTargets = [][]int32{{1, 0}}
	s, err := NewResultSink(resultDir(t), shape, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Abort()
	if err := s.Put(treeBlocks(trees, 1, false, true)[0]); err == nil {
		t.Error("a block of full rows was taken for a pair list")
	}
}
