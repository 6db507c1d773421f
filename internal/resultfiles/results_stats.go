package resultfiles

import (
	"math"
	"math/big"
	"math/bits"
	"sync"
)

// sourceStats accumulates, per source, what the summary table and the
// manifest say about it, from the pieces of its row that part writers see.
// Sums are exact (128-bit), so the result does not depend on how rows were
// cut into pieces or in which order the pieces were merged.
type sourceStats struct {
	mu  sync.Mutex
	acc []sourceAcc
}

// sourceAcc is the summary of the cells seen of one source's row: reached
// counts the written cells with a distance (the source's own included),
// ecc is the largest distance to another vertex, sum the sum of those
// distances as a two's-complement 128-bit integer.
type sourceAcc struct {
	reached int64
	ecc     int64
	sumLo   uint64
	sumHi   int64
}

func newSourceStats(sources int) *sourceStats {
	s := &sourceStats{acc: make([]sourceAcc, sources)}
	for i := range s.acc {
		s.acc[i].ecc = NoEccentricity
	}
	return s
}

// emptyAcc starts a piece's accumulator.
func emptyAcc() sourceAcc { return sourceAcc{ecc: NoEccentricity} }

// addDistance counts a reached cell other than the source itself.
func (a *sourceAcc) addDistance(d int64) {
	a.ecc = max(a.ecc, d)
	a.addSum(uint64(d), d>>63)
}

func (a *sourceAcc) addSum(lo uint64, hi int64) {
	var carry uint64
	a.sumLo, carry = bits.Add64(a.sumLo, lo, 0)
	a.sumHi += hi + int64(carry)
}

// merge adds a piece of source i's row.
func (s *sourceStats) merge(i int, piece sourceAcc) {
	s.mu.Lock()
	a := &s.acc[i]
	a.reached += piece.reached
	a.ecc = max(a.ecc, piece.ecc)
	a.addSum(piece.sumLo, piece.sumHi)
	s.mu.Unlock()
}

// rows returns the summary rows; cells(i) is the number of cells of
// source index i. Closeness is Summarize's Wasserman-Faust form over those
// cells.
func (s *sourceStats) rows(sources []int32, cells func(i int) int) []SummaryRow {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]SummaryRow, len(sources))
	for i, a := range s.acc {
		row := SummaryRow{Source: sources[i], Reachable: a.reached, Eccentricity: a.ecc, Closeness: math.NaN()}
		sum := a.sum()
		if r, n := float64(a.reached), cells(i); a.reached > 1 && n > 1 && sum > 0 {
			row.Closeness = (r - 1) / float64(n-1) * (r - 1) / sum
		}
		out[i] = row
	}
	return out
}

// sum returns the distance sum as a float64.
func (a sourceAcc) sum() float64 {
	if (a.sumHi == 0 && a.sumLo>>63 == 0) || (a.sumHi == -1 && a.sumLo>>63 == 1) {
		return float64(int64(a.sumLo))
	}
	v := new(big.Int).Lsh(big.NewInt(a.sumHi), 64)
	v.Add(v, new(big.Int).SetUint64(a.sumLo))
	f, _ := new(big.Float).SetInt(v).Float64()
	return f
}
