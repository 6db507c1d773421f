package graph

import "math"

// Inf32 is the "no path" value of int32 distance buffers (GPU kernels and the
// binary distance-matrix format): 2^30 - 1, so that Inf32 + Inf32 still fits
// in an int32 and a relaxation through an unreachable vertex cannot wrap.
const Inf32 int32 = 1<<30 - 1

// DistanceBound returns an upper bound on the absolute value of any shortest
// path distance in a graph of n vertices whose arc weights lie in [lo, hi]:
// a shortest simple path has at most n-1 arcs. The result saturates at
// math.MaxInt64 instead of overflowing.
func DistanceBound(n int64, lo, hi int32) int64 {
	maxAbs := max(abs64(int64(lo)), abs64(int64(hi)))
	if n <= 1 || maxAbs == 0 {
		return 0
	}
	if maxAbs > math.MaxInt64/(n-1) {
		return math.MaxInt64
	}
	return (n - 1) * maxAbs
}

// FitsInt32Distances reports whether every shortest-path distance of the
// graph provably stays strictly below Inf32 in absolute value, so int32
// distance buffers with Inf32 as infinity give exact results.
func FitsInt32Distances(n int64, lo, hi int32) bool {
	return DistanceBound(n, lo, hi) < int64(Inf32)
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}
