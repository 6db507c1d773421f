package results

import (
	"math"
	"math/big"
	"math/bits"
)

// NoEccentricity is the Eccentricity of a RowSummary whose source reaches
// no other vertex. No distance takes this value: shortest distances are
// bounded by graph.DistanceBound.
const NoEccentricity int64 = math.MinInt64

// RowSummary is what the per-source summary reads of a row, or of a
// piece of one: the cells kept (with a path, within the shape's cutoff),
// the largest distance among them and their exact sum. A run whose
// consumers read nothing else (Shape.SummaryOnly) may hand these instead
// of the cells (Rows.Summaries), so that a row of n cells crosses to the
// writers, and off a device, as a few words. Pieces merge in any order to
// the same value: the sum is a 128-bit integer.
type RowSummary struct {
	// Reached counts the kept cells, the source's own included.
	Reached int64
	// Eccentricity is the largest kept distance to a vertex other than
	// the source, or NoEccentricity when there is none.
	Eccentricity int64
	// SumLo and SumHi are the sum of those distances (the source's own
	// left out), a two's-complement 128-bit integer: low and high words.
	SumLo uint64
	SumHi int64
}

// EmptySummary is the summary of no cells.
func EmptySummary() RowSummary { return RowSummary{Eccentricity: NoEccentricity} }

// AddSource counts the source's own cell, kept: reached, but no distance.
func (a *RowSummary) AddSource() { a.Reached++ }

// AddDistance counts a kept cell of a vertex other than the source, d away.
func (a *RowSummary) AddDistance(d int64) {
	a.Reached++
	a.Eccentricity = max(a.Eccentricity, d)
	a.addSum(uint64(d), d>>63)
}

// Merge adds the summary of another piece of the same row.
func (a *RowSummary) Merge(b RowSummary) {
	a.Reached += b.Reached
	a.Eccentricity = max(a.Eccentricity, b.Eccentricity)
	a.addSum(b.SumLo, b.SumHi)
}

// addSum adds the 128-bit value hi:lo to the sum.
func (a *RowSummary) addSum(lo uint64, hi int64) {
	var carry uint64
	a.SumLo, carry = bits.Add64(a.SumLo, lo, 0)
	a.SumHi += hi + int64(carry)
}

// Sum returns the distance sum as a float64: exact up to 2^53, the
// nearest float64 beyond.
func (a RowSummary) Sum() float64 {
	if (a.SumHi == 0 && a.SumLo>>63 == 0) || (a.SumHi == -1 && a.SumLo>>63 == 1) {
		return float64(int64(a.SumLo))
	}
	v := new(big.Int).Lsh(big.NewInt(a.SumHi), 64)
	v.Add(v, new(big.Int).SetUint64(a.SumLo))
	f, _ := new(big.Float).SetInt(v).Float64()
	return f
}

// Closeness is the Wasserman-Faust closeness of the row's source over a
// row of cells cells: (r-1)/(cells-1) * (r-1)/S, r = Reached and S = Sum;
// NaN when r <= 1, cells <= 1 or S <= 0, where it is undefined
// (resultfiles.Summarize says why this form).
func (a RowSummary) Closeness(cells int) float64 {
	sum := a.Sum()
	if a.Reached <= 1 || cells <= 1 || sum <= 0 {
		return math.NaN()
	}
	r := float64(a.Reached)
	return (r - 1) / float64(cells-1) * (r - 1) / sum
}
