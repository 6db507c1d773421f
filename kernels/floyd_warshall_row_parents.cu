#include "floyd_warshall_simple.cuh"

// floyd_warshall_row_parents is step k of Floyd-Warshall, one thread per row, distances and parents.
// The host launches it once per k.
extern "C" __global__ void floyd_warshall_row_parents(int* __restrict__ dist, int* __restrict__ parent, long long n,
                                                   long long pitch, long long k, int* __restrict__ negative) {
  fw_row_step<true>(dist, parent, n, pitch, k, negative);
}
