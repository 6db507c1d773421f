#include "floyd_warshall_fast.cuh"

// floyd_warshall_fast_cross is phase 2 of round r: the pivot row and column tiles of the fast
// variant, distances only; launched as grid (tiles-1, 2) of 32 x 32 blocks.
extern "C" __global__ void __launch_bounds__(1024) floyd_warshall_fast_cross(int* __restrict__ dist, int* __restrict__ parent,
                                                          long long pitch, long long r) {
  fw_fast_cross<false>(dist, parent, pitch, r);
}
