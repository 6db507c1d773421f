package sssp

import (
	"testing"

	"github.com/pathflow/pathflow/internal/results"
)

// decodeSummaries reads the words sssp_batch_summary writes: the others'
// count and sum as u64 pairs, the eccentricity key, the source's flag;
// no other cell means no eccentricity, whatever the key word holds.
func TestDecodeSummariesReadsTheKernelsWords(t *testing.T) {
	key := func(d int32) int32 { return int32(uint32(d) ^ 0x80000000) }
	sum := int64(1)<<40 + 12345
	words := []int32{
		3, 0, int32(uint32(sum)), int32(uint32(uint64(sum) >> 32)), key(77), 1,
		0, 0, 0, 0, 12345, 1,
		2, 0, 9, 0, key(0), 0,
	}
	r := &results.Rows{Sources: []int32{4, 5, 6}, Width: summaryWords, Dist32: words}
	decodeSummaries(r)
	want := []results.RowSummary{
		{Reached: 4, Eccentricity: 77, SumLo: uint64(sum)},
		{Reached: 1, Eccentricity: results.NoEccentricity},
		{Reached: 2, Eccentricity: 0, SumLo: 9},
	}
	if r.Dist32 != nil || r.Width != 0 || len(r.Summaries) != len(want) {
		t.Fatalf("block after decoding: width %d, %d cells, %d summaries", r.Width, len(r.Dist32), len(r.Summaries))
	}
	for i := range want {
		if r.Summaries[i] != want[i] {
			t.Errorf("row %d: %+v, want %+v", i, r.Summaries[i], want[i])
		}
	}
	if err := (&results.Shape{Sources: r.Sources, SummaryOnly: true}).Check(r, 10); err != nil {
		t.Error(err)
	}
}
