#include "floyd_warshall_simple.cuh"

// floyd_warshall_naive is step k of Floyd-Warshall, one thread per cell (2-D grid over the n x n matrix), distances only.
// The host launches it once per k.
extern "C" __global__ void floyd_warshall_naive(int* __restrict__ dist, int* __restrict__ parent, long long n,
                                                   long long pitch, long long k, int* __restrict__ negative) {
  fw_naive_step<false>(dist, parent, n, pitch, k, negative);
}
