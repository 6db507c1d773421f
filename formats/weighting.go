package formats

import "fmt"

// Weighting chooses the arc weights of an input that may have none.
type Weighting int

const (
	// WeightFromFile, the zero value, takes the file's weight column when it
	// has one and gives every arc weight 1 otherwise.
	WeightFromFile Weighting = iota
	// WeightUnit gives every arc weight 1; a weight column is ignored.
	WeightUnit
	// WeightHash gives arc (u, v) the weight HashWeight(u, v, ...) of its
	// original ids; a weight column is ignored.
	WeightHash
)

// String returns the name used in configuration: "file", "unit" or "hash".
func (w Weighting) String() string {
	switch w {
	case WeightFromFile:
		return "file"
	case WeightUnit:
		return "unit"
	case WeightHash:
		return "hash"
	}
	return fmt.Sprintf("Weighting(%d)", int(w))
}

// ParseWeighting is the inverse of Weighting.String.
func ParseWeighting(s string) (Weighting, error) {
	for _, w := range []Weighting{WeightFromFile, WeightUnit, WeightHash} {
		if s == w.String() {
			return w, nil
		}
	}
	return 0, fmt.Errorf("formats: unknown weighting %q: want file, unit or hash", s)
}

// HashWeight is pathflow's documented weight for an arc of an unweighted
// input, a pure function of the original ids so that every tool can build
// the same weighted graph:
//
//	w(u, v) = lo + splitmix64(seed XOR ((u << 32) | v)) mod (hi - lo + 1)
//
// with all arithmetic on uint64 (ids at or above 2^32 wrap into the shift as
// the formula says) and splitmix64 the standard finaliser. lo <= hi is
// required; the result lies in [lo, hi]. O(1).
func HashWeight(u, v int64, lo, hi int32, seed uint64) int32 {
	x := seed ^ (uint64(u)<<32 | uint64(v))
	span := uint64(int64(hi) - int64(lo) + 1)
	return int32(int64(lo) + int64(splitmix64(x)%span))
}

// splitmix64 is the finaliser of Steele, Lea and Flood's SplitMix64
// generator: one step from state x.
func splitmix64(x uint64) uint64 {
	x += 0x9E3779B97F4A7C15
	z := (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}
