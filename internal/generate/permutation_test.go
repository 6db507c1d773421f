package generate

import (
	"math"
	"slices"
	"testing"
)

func TestRandomPermutationIsPermutation(t *testing.T) {
	seed := freshSeed(t)
	for _, n := range []int{0, 1, 2, permChunk - 1, permChunk, 2*permChunk + 1, 5 * permChunk} {
		p := randomPermutation(n, seed)
		sorted := slices.Clone(p)
		slices.Sort(sorted)
		for i, v := range sorted {
			if v != int32(i) {
				t.Fatalf("n %d: not a permutation (sorted[%d] = %d)", n, i, v)
			}
		}
	}
}

// TestRandomPermutationUniform checks with a chi-square test that all 6
// permutations of 3 elements are about equally likely, and that across
// several buckets an element lands anywhere (mean displacement n/3).
func TestRandomPermutationUniform(t *testing.T) {
	seed := freshSeed(t)
	const runs = 6000
	counts := map[[3]int32]int{}
	for i := range uint64(runs) {
		p := randomPermutation(3, seed+i)
		counts[[3]int32(p)]++
	}
	if len(counts) != 6 {
		t.Fatalf("%d distinct permutations of 3 elements", len(counts))
	}
	chi2 := 0.0
	for _, c := range counts {
		d := float64(c) - runs/6.0
		chi2 += d * d / (runs / 6.0)
	}
	// 5 degrees of freedom: P(chi2 > 30) is about 1.5e-5.
	if chi2 > 30 {
		t.Errorf("chi-square %.1f over 6 permutations: %v", chi2, counts)
	}

	n := 8 * permChunk
	p := randomPermutation(n, seed)
	total := 0.0
	for i, v := range p {
		total += math.Abs(float64(int(v) - i))
	}
	mean := total / float64(n)
	if math.Abs(mean-float64(n)/3)/float64(n) > 0.01 {
		t.Errorf("mean displacement %.0f, want about %d", mean, n/3)
	}
}
