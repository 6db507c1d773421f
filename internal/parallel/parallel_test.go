package parallel

import (
	"slices"
	"sync/atomic"
	"testing"
)

func TestForRunsEachIndexOnce(t *testing.T) {
	for _, tc := range []struct{ count, workers int }{{0, 4}, {1, 4}, {3, 8}, {100, 1}, {100, 7}} {
		runs := make([]atomic.Int32, tc.count)
		For(tc.count, tc.workers, func(i int) { runs[i].Add(1) })
		for i := range runs {
			if n := runs[i].Load(); n != 1 {
				t.Errorf("count %d, workers %d: index %d ran %d times", tc.count, tc.workers, i, n)
			}
		}
	}
}

func TestPlacesMatchASequentialStableScatter(t *testing.T) {
	// Three chunks of items, each item naming its bucket.
	chunks := [][]int{{2, 0, 2}, {}, {1, 0, 0, 2}}
	const buckets = 3
	counts := make([][]int, len(chunks))
	for c, items := range chunks {
		counts[c] = make([]int, buckets)
		for _, b := range items {
			counts[c][b]++
		}
	}
	start := Places(counts, buckets)
	if want := []int{0, 3, 4, 7}; !slices.Equal(start, want) {
		t.Errorf("bucket starts %v, want %v", start, want)
	}
	// Scatter (chunk, index) pairs and compare with one stable pass.
	type item struct{ chunk, index int }
	got := make([]item, start[buckets])
	for c, items := range chunks {
		for i, b := range items {
			got[counts[c][b]] = item{c, i}
			counts[c][b]++
		}
	}
	var want []item
	for b := range buckets {
		for c, items := range chunks {
			for i, ib := range items {
				if ib == b {
					want = append(want, item{c, i})
				}
			}
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("scattered %v, want %v", got, want)
	}
}
