package formats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestHashWeightVectors checks the published test vectors of the weighting
// rule (shared/datasets/README.md).
func TestHashWeightVectors(t *testing.T) {
	for _, tc := range []struct {
		u, v int64
		want int32
	}{
		{0, 1, 61},
		{0, 2, 99},
		{1, 0, 48},
		{10875, 10878, 60},
		{123456, 7, 84},
	} {
		if got := HashWeight(tc.u, tc.v, 1, 100, 42); got != tc.want {
			t.Errorf("w(%d, %d) = %d, want %d", tc.u, tc.v, got, tc.want)
		}
	}
}

// TestSplitmix64 checks the finaliser against the first outputs of the
// reference SplitMix64 generator seeded with 0 (state advanced by the
// golden gamma before each output).
func TestSplitmix64(t *testing.T) {
	want := []uint64{0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f}
	for i, w := range want {
		if got := splitmix64(uint64(i) * 0x9E3779B97F4A7C15); got != w {
			t.Errorf("output %d: %#x, want %#x", i, got, w)
		}
	}
}

func TestHashWeightRange(t *testing.T) {
	for _, seed := range testSeeds(t) {
		rng := rand.New(rand.NewPCG(seed, 6))
		for range 10_000 {
			a, b := int32(rng.Uint32()), int32(rng.Uint32())
			if rng.IntN(4) == 0 {
				a, b = math.MinInt32, math.MaxInt32
			}
			lo, hi := min(a, b), max(a, b)
			w := HashWeight(rng.Int64(), rng.Int64(), lo, hi, rng.Uint64())
			if w < lo || w > hi {
				t.Fatalf("seed %d: weight %d outside [%d, %d]", seed, w, lo, hi)
			}
		}
	}
	if w := HashWeight(3, 4, 7, 7, 99); w != 7 {
		t.Errorf("lo = hi = 7 gave %d", w)
	}
}

func TestParseWeighting(t *testing.T) {
	for _, w := range []Weighting{WeightFromFile, WeightUnit, WeightHash} {
		got, err := ParseWeighting(w.String())
		if err != nil || got != w {
			t.Errorf("ParseWeighting(%q) = %v, %v", w.String(), got, err)
		}
	}
	if _, err := ParseWeighting("random"); err == nil {
		t.Error("ParseWeighting accepted \"random\"")
	}
}
