package resultfiles

import (
	"fmt"
	"slices"
	"testing"

	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/internal/tables"
	"github.com/pathflow/pathflow/internal/tables/tablestest"
)

// Sparse blocks (each row's cells within the cutoff, with their vertices)
// write the same files and summary as the whole rows they stand for, also
// mixed with whole-row blocks, in every format, with and without parents,
// for int32 and int64 distances, cutoffs of 0 and random ones.
func TestSparseBlocksWriteTheSameTables(t *testing.T) {
	t.Parallel()
	for _, seed := range tablestest.Seeds(t) {
		rng := tablestest.NewRand(seed)
		n := 1 + rng.IntN(400)
		narrow := rng.IntN(2) == 0
		trees := randomTrees(rng, n, 12, narrow)
		for _, cutoff := range []int64{0, randomCutoff(rng, trees)} {
			for _, format := range tableFormats {
				for _, withParents := range []bool{true, false} {
					t.Run(fmt.Sprintf("%d/%d/%v/parents=%v", seed, cutoff, format, withParents), func(t *testing.T) {
						shape := longShape(trees, withParents)
						shape.MaxDistance = cutoff
						per := 1 + rng.IntN(5)
						opts := []tables.Option{tables.WithFormat(format), tables.WithCompression(tables.LZ4), tables.WithBatchRows(1 + rng.IntN(n+20)),
							tables.WithPartRows(int64(1 + len(trees)*n/4))}
						dense := writeTrees(t, resultDir(t), shape, trees, narrow, per, rng, opts...)
						sparse := writeBlocks(t, resultDir(t), shape, sparseBlocks(trees, shape, per, narrow), rng, opts...)
						wantFiles, gotFiles := dense.Files(), sparse.Files()
						if len(gotFiles) != len(wantFiles) {
							t.Fatalf("%d parts from sparse blocks, %d from whole rows", len(gotFiles), len(wantFiles))
						}
						for k := range wantFiles {
							tablestest.SameBytes(t, wantFiles[k].Path, gotFiles[k].Path)
						}
						summary, err := NewSummarySink(shape)
						if err != nil {
							t.Fatal(err)
						}
						if err := putShuffled(summary, sparseBlocks(trees, shape, per, narrow), rng); err != nil {
							t.Fatal(err)
						}
						// Printed, so that a closeness of NaN equals itself.
						got, want := fmt.Sprint(summary.Rows()), fmt.Sprint(summarizeTrees(t, shape, trees, narrow, per, rng))
						if got != want {
							t.Fatalf("summary of sparse blocks %s, of whole rows %s", got, want)
						}
					})
				}
			}
		}
	}
}

// A sparse block is refused where the table needs whole rows (no cutoff,
// targets, the wide layout) and where it breaks its own rules.
func TestSparseBlocksRefused(t *testing.T) {
	t.Parallel()
	rng := tablestest.NewRand(5)
	trees := randomTrees(rng, 50, 3, true)
	shape := longShape(trees, false)
	shape.MaxDistance = 1 << 40
	good := sparseBlocks(trees, shape, 3, true)[0]
	if lo, hi := good.Span(0); hi-lo < 2 || good.Len() < 2 || maxCell(good) < 1 {
		t.Fatalf("row 0 has %d cells (at most %d away) in %d rows, too few to spoil", hi-lo, maxCell(good), good.Len())
	}
	cases := map[string]func(s *ResultShape, b *results.Rows){
		"no cutoff":  func(s *ResultShape, b *results.Rows) { s.MaxDistance = results.NoCutoff },
		"targets":    func(s *ResultShape, b *results.Rows) { s.Targets = []int32{0} },
		"wide":       func(s *ResultShape, b *results.Rows) { s.Layout = Wide },
		"beyond":     func(s *ResultShape, b *results.Rows) { s.MaxDistance = maxCell(b) - 1 },
		"unordered":  func(s *ResultShape, b *results.Rows) { b.Vertices[0], b.Vertices[1] = b.Vertices[1], b.Vertices[0] },
		"outside":    func(s *ResultShape, b *results.Rows) { b.Vertices[len(b.Vertices)-1] = 50 },
		"short list": func(s *ResultShape, b *results.Rows) { b.Vertices = b.Vertices[1:] },
		"row past the end": func(s *ResultShape, b *results.Rows) {
			b.Offsets = slices.Clone(b.Offsets)
			b.Offsets[1] = len(b.Vertices) + 1
		},
	}
	for name, spoil := range cases {
		s := shape
		b := *good
		b.Vertices = slices.Clone(good.Vertices)
		spoil(&s, &b)
		if err := s.checkBlock(&b); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if err := shape.checkBlock(good); err != nil {
		t.Fatalf("the unspoilt block: %v", err)
	}
}

// maxCell is the largest distance of a block's cells.
func maxCell(b *results.Rows) int64 {
	dist := b.Distances()
	high, _ := dist.At(0)
	for at := range b.Vertices {
		d, _ := dist.At(at)
		high = max(high, d)
	}
	return high
}
