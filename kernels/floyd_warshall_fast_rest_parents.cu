#include "floyd_warshall_fast.cuh"

// floyd_warshall_fast_rest_parents is phase 3 of round r: all other tiles of the fast
// variant, distances and parents; launched as grid (tiles-1, tiles-1) of 256 threads.
extern "C" __global__ void __launch_bounds__(256, 1) floyd_warshall_fast_rest_parents(int* __restrict__ dist, int* __restrict__ parent,
                                                          long long pitch, long long r) {
  fw_fast_rest<true>(dist, parent, pitch, r);
}
