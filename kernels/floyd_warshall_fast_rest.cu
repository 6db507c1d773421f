#include "floyd_warshall_fast.cuh"

// floyd_warshall_fast_rest is phase 3 of round r: all other tiles of the fast
// variant, distances only; launched as grid (tiles-1, tiles-1) of 256 threads.
extern "C" __global__ void __launch_bounds__(256, 2) floyd_warshall_fast_rest(int* __restrict__ dist, int* __restrict__ parent,
                                                          long long pitch, long long r) {
  fw_fast_rest<false>(dist, parent, pitch, r);
}
