package tables

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestLevelRunsMatchBitmapLevels: levels of bit width 1 fed as runs give
// the bytes appendLevelsRLE gives for the same levels as validity bits
// (which are arrow-go's, TestDefinitionLevels and the file comparisons),
// for runs short and long, alone and mixed, so that literal runs fill
// their 63 groups and repeated runs start anywhere in a group.
func TestLevelRunsMatchBitmapLevels(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 71))
	for trial := range 400 {
		var levels []bool
		for len(levels) < 1+trial*7 {
			v := rng.IntN(2) == 1
			n := 1 + rng.IntN(4)
			if rng.IntN(5) == 0 {
				n = 1 + rng.IntN(40)
			}
			for range n {
				levels = append(levels, v)
			}
		}
		bitmap := make([]byte, (len(levels)+7)/8)
		var r levelRuns
		r.reset(1, nil)
		for i := 0; i < len(levels); {
			j := i
			for j < len(levels) && levels[j] == levels[i] {
				if levels[j] {
					bitmap[j/8] |= 1 << (j % 8)
				}
				j++
			}
			v := uint64(0)
			if levels[i] {
				v = 1
			}
			r.put(v, j-i)
			i = j
		}
		want := appendLevelsRLE(nil, bitmap, 0, len(levels))
		if got := r.finish(); !bytes.Equal(got, want) {
			t.Fatalf("trial %d, %d levels: runs give % x, levels one by one % x", trial, len(levels), got, want)
		}
	}
}
