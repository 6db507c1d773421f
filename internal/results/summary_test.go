package results

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
)

// referenceSummary is the summary of one row written out plainly: cells
// dist of vertices (nil: vertex j at column j), the source's own cell
// reached without a distance, math/big-free since the test sums stay
// small.
func referenceSummary(dist []int64, vertices []int32, source int32, maxDistance int64) (reached, ecc, sum int64) {
	ecc = NoEccentricity
	for j, d := range dist {
		if d == paths.Unreachable || (maxDistance != NoCutoff && d > maxDistance) {
			continue
		}
		reached++
		v := int32(j)
		if vertices != nil {
			v = vertices[j]
		}
		if v != source {
			ecc, sum = max(ecc, d), sum+d
		}
	}
	return reached, ecc, sum
}

// SummarizeRow reads every block layout (whole rows in both widths,
// shared targets, per-source targets, sparse cells) as the plain
// reference does: the source's own cell, unreachable cells, a vertex at
// distance 0 other than the source, the cutoff.
func TestSummarizeRowMatchesEveryLayout(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	const n = 50
	sources := []int32{3, 0, 49, 17}
	rows := make([][]int64, len(sources))
	for i, s := range sources {
		rows[i] = make([]int64, n)
		for v := range rows[i] {
			switch r.IntN(5) {
			case 0:
				rows[i][v] = paths.Unreachable
			case 1:
				rows[i][v] = 0
			default:
				rows[i][v] = r.Int64N(1000)
			}
		}
		rows[i][s] = 0
	}
	targets := []int32{5, 3, 3, 49, 0, 12}
	lists := [][]int32{{3, 4}, {}, {49, 49, 1}, {16, 17, 18, 19}}
	for _, cutoff := range []int64{NoCutoff, 0, 500} {
		// Whole rows, int64 and int32.
		whole := &Rows{Sources: sources, Width: n}
		narrow := &Rows{Sources: sources, Width: n}
		for _, row := range rows {
			whole.Dist64 = append(whole.Dist64, row...)
			for _, d := range row {
				if d == paths.Unreachable {
					narrow.Dist32 = append(narrow.Dist32, graph.Inf32)
				} else {
					narrow.Dist32 = append(narrow.Dist32, int32(d))
				}
			}
		}
		shape := &Shape{Sources: sources, MaxDistance: cutoff}
		for i, s := range sources {
			reached, ecc, sum := referenceSummary(rows[i], nil, s, cutoff)
			for _, b := range []*Rows{whole, narrow} {
				check(t, "whole", shape.SummarizeRow(b, i), reached, ecc, sum)
			}
		}
		// Shared targets.
		shared := &Shape{Sources: sources, Targets: targets, MaxDistance: cutoff}
		block := shared.NarrowBlock(whole)
		for i, s := range sources {
			cells := make([]int64, len(targets))
			for j, v := range targets {
				cells[j] = rows[i][v]
			}
			reached, ecc, sum := referenceSummary(cells, targets, s, cutoff)
			check(t, "targets", shared.SummarizeRow(block, i), reached, ecc, sum)
		}
		// Per-source targets.
		ragged := &Shape{Sources: sources, SourceTargets: lists, MaxDistance: cutoff}
		block = ragged.NarrowBlock(whole)
		for i, s := range sources {
			cells := make([]int64, len(lists[i]))
			for j, v := range lists[i] {
				cells[j] = rows[i][v]
			}
			reached, ecc, sum := referenceSummary(cells, lists[i], s, cutoff)
			check(t, "pairs", ragged.SummarizeRow(block, i), reached, ecc, sum)
		}
		// Sparse cells within the cutoff.
		if cutoff == NoCutoff {
			continue
		}
		sparse := &Rows{Sources: sources, Offsets: []int{0}}
		for _, row := range rows {
			for v, d := range row {
				if d != paths.Unreachable && d <= cutoff {
					sparse.Vertices = append(sparse.Vertices, int32(v))
					sparse.Dist64 = append(sparse.Dist64, d)
				}
			}
			sparse.Offsets = append(sparse.Offsets, len(sparse.Vertices))
		}
		cells := &Shape{Sources: sources, MaxDistance: cutoff, CutoffCells: true}
		if err := cells.Check(sparse, n); err != nil {
			t.Fatal(err)
		}
		for i, s := range sources {
			reached, ecc, sum := referenceSummary(rows[i], nil, s, cutoff)
			check(t, "sparse", cells.SummarizeRow(sparse, i), reached, ecc, sum)
		}
	}
}

func check(t *testing.T, layout string, got RowSummary, reached, ecc, sum int64) {
	t.Helper()
	if got.Reached != reached || got.Eccentricity != ecc || got.SumHi != 0 || int64(got.SumLo) != sum {
		t.Errorf("%s: got %+v, want reached %d, eccentricity %d, sum %d", layout, got, reached, ecc, sum)
	}
}

// Summaries of pieces merge to the summary of the whole in any order, and
// the 128-bit sum carries past 2^64.
func TestRowSummaryMergesExactly(t *testing.T) {
	big := int64(1) << 62
	var pieces []RowSummary
	for k := range 6 {
		p := EmptySummary()
		p.AddDistance(big)
		p.AddDistance(int64(k))
		pieces = append(pieces, p)
	}
	a, b := EmptySummary(), EmptySummary()
	for i := range pieces {
		a.Merge(pieces[i])
		b.Merge(pieces[len(pieces)-1-i])
	}
	if a != b {
		t.Fatalf("merge depends on order: %+v vs %+v", a, b)
	}
	// 6 * 2^62 + 15 = 2^64 + 2^63 + 15.
	if a.SumHi != 1 || a.SumLo != 1<<63+15 || a.Reached != 12 || a.Eccentricity != big {
		t.Fatalf("got %+v", a)
	}
	if want := 6*float64(big) + 15; a.Sum() != want {
		t.Errorf("Sum() = %v, want %v", a.Sum(), want)
	}
	neg := EmptySummary()
	neg.AddDistance(-5)
	neg.AddDistance(2)
	if neg.Sum() != -3 || neg.Eccentricity != 2 {
		t.Errorf("negative distances: %+v, sum %v", neg, neg.Sum())
	}
}

// Closeness is Wasserman-Faust over the row's cells, NaN where undefined.
func TestRowSummaryCloseness(t *testing.T) {
	s := EmptySummary()
	s.AddSource()
	if !math.IsNaN(s.Closeness(10)) {
		t.Error("a source that reaches only itself has a closeness")
	}
	s.AddDistance(4)
	s.AddDistance(6)
	if got, want := s.Closeness(5), 2.0/4*2/10; got != want {
		t.Errorf("Closeness(5) = %v, want %v", got, want)
	}
	z := EmptySummary()
	z.AddSource()
	z.AddDistance(0)
	if !math.IsNaN(z.Closeness(5)) {
		t.Error("a zero distance sum has a closeness")
	}
}

// SummarizeSink hands blocks of cells on as their summaries and releases
// them at once, passes summarized blocks as they are, and is sink itself
// for a shape that does not read summaries alone.
func TestSummarizeSinkReducesCells(t *testing.T) {
	shape := &Shape{Sources: []int32{1, 0}, MaxDistance: NoCutoff, SummaryOnly: true}
	released := false
	cells := &Rows{Sources: []int32{1, 0}, Width: 3, Dist32: []int32{5, 0, graph.Inf32, 0, 7, 9}}
	cells.OnRelease(func(*Rows) { released = true })
	var got []*Rows
	sink := shape.SummarizeSink(func(r *Rows) error { got = append(got, r); return nil })
	if err := sink(cells); err != nil {
		t.Fatal(err)
	}
	if !released {
		t.Error("the block of cells was not released")
	}
	done := &Rows{First: 1, Sources: []int32{0}, Summaries: []RowSummary{EmptySummary()}}
	if err := sink(done); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[1] != done {
		t.Fatalf("got %d blocks; the summarized one passed: %v", len(got), len(got) == 2 && got[1] == done)
	}
	for _, b := range got {
		if err := shape.Check(b, 3); err != nil {
			t.Fatal(err)
		}
	}
	want := []RowSummary{{Reached: 2, Eccentricity: 5, SumLo: 5}, {Reached: 3, Eccentricity: 9, SumLo: 16}}
	if len(got[0].Summaries) != 2 || got[0].Summaries[0] != want[0] || got[0].Summaries[1] != want[1] {
		t.Errorf("summaries %+v, want %+v", got[0].Summaries, want)
	}
	plain := &Shape{Sources: shape.Sources}
	if err := plain.Check(got[0], 3); err == nil {
		t.Error("a block of summaries passed the check of a result of cells")
	}
	bad := &Rows{Sources: []int32{1, 0}, Summaries: []RowSummary{EmptySummary()}}
	if err := shape.Check(bad, 3); err == nil {
		t.Error("a block with a summary missing passed the check")
	}
	called := false
	inner := func(*Rows) error { called = true; return nil }
	if err := plain.SummarizeSink(inner)(cells); err != nil || !called {
		t.Error("a shape of cells did not get its sink itself")
	}
}
