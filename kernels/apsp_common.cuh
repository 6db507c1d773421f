// Shared device code of the all-pairs kernels.
//
// Distances are int32 with INF32 (graph.Inf32 = 2^30 - 1) for "no path", so
// INF32 + INF32 still fits in an int32. Parents are int32 vertex ids with -1
// for "none" (paths.NoParent). Matrices are row-major with a row pitch of
// `pitch` elements; the host pads the pitch to the variant's tile multiple.
//
// Every scalar kernel parameter is 64-bit (long long): the Go launcher copies
// eight bytes per argument.
#pragma once

#define INF32 0x3FFFFFFF

typedef long long i64;

// add_min is the Floyd-Warshall relaxation min(a + b, c); ptxas for sm_90
// turns it into one VIADDMNMX instruction.
__device__ __forceinline__ int add_min(int a, int b, int c) { return min(a + b, c); }

// clamp_low keeps a sum at or above -INF32. The pivot-tile kernels use it so
// that a negative cycle, which makes values fall without bound, cannot wrap
// around int32 before the negative diagonal has been seen and reported.
__device__ __forceinline__ int clamp_low(int x) { return max(x, -INF32); }

// report_negative records vertex v as lying on a negative cycle; the host
// reads the smallest such vertex.
__device__ __forceinline__ void report_negative(int* negative, i64 v) { atomicMin(negative, (int)v); }
