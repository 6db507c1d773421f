package parallel

import (
	"runtime"
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

// Chunks covers 0..n-1 once, in consecutive chunks ordered by their index,
// none but an empty tail smaller than minChunk, w below workers.
func TestChunksCoverEachIndexOnceInOrder(t *testing.T) {
	for _, tc := range []struct{ n, workers, minChunk int }{{0, 4, 1}, {5, 4, 10}, {100, 7, 1}, {100, 7, 30}, {1000, 3, 0}, {10, 16, 1}} {
		runs := make([]atomic.Int32, tc.n)
		spans := make([][2]int, tc.workers)
		Chunks(tc.n, tc.workers, tc.minChunk, func(w, lo, hi int) {
			spans[w] = [2]int{lo, hi}
			for i := lo; i < hi; i++ {
				runs[i].Add(1)
			}
		})
		for i := range runs {
			if c := runs[i].Load(); c != 1 {
				t.Fatalf("%+v: index %d ran %d times", tc, i, c)
			}
		}
		end := 0
		for w, s := range spans {
			if s == [2]int{} && end == tc.n {
				continue // an unused slot
			}
			if s[0] != end || (s[1]-s[0] < tc.minChunk && s[1] != tc.n && w > 0) {
				t.Fatalf("%+v: chunk %d is %v after %d", tc, w, s, end)
			}
			end = s[1]
		}
	}
}

func TestWorkersResolvesTheDefault(t *testing.T) {
	if got := Workers(3); got != 3 {
		t.Errorf("Workers(3) = %d", got)
	}
	for _, requested := range []int{0, -1} {
		if got, want := Workers(requested), runtime.GOMAXPROCS(0); got != want {
			t.Errorf("Workers(%d) = %d, want GOMAXPROCS %d", requested, got, want)
		}
	}
}
