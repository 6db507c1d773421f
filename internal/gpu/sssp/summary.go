package sssp

import (
	"github.com/pathflow/pathflow/internal/results"
)

// summaryWords is the int32 words of one row's summary as
// kernels/sssp_batch_summary.cu writes it: three little-endian u64, the
// kept cells other than the source's, the sum of their distances, and the
// largest of them as an order-preserving key (low half) beside the
// source's own cell kept (high half).
const summaryWords = 6

// decodeSummaries turns a block whose Dist32 holds its rows' summaries as
// the device wrote them into a block of results.RowSummary, without
// cells. O(rows).
func decodeSummaries(r *results.Rows) {
	words := r.Dist32
	r.Summaries = make([]results.RowSummary, r.Len())
	for i := range r.Summaries {
		w := words[i*summaryWords : (i+1)*summaryWords]
		others := uint64(uint32(w[0])) | uint64(uint32(w[1]))<<32
		sum := int64(uint64(uint32(w[2])) | uint64(uint32(w[3]))<<32)
		s := results.EmptySummary()
		if others > 0 {
			s.Reached = int64(others)
			s.Eccentricity = int64(int32(uint32(w[4]) ^ 0x80000000))
			s.SumLo, s.SumHi = uint64(sum), sum>>63
		}
		if w[5] != 0 {
			s.AddSource()
		}
		r.Summaries[i] = s
	}
	r.Dist32, r.Width = nil, 0
}
