#include "floyd_warshall_fast.cuh"

// floyd_warshall_fast_rest is phase 3 of round r of the fast variant,
// distances only: every tile outside row and column r (and outside row and
// column skip, unless skip is -1); launched as a square grid of 256-thread
// blocks, one per tile.
extern "C" __global__ void __launch_bounds__(256, 2) floyd_warshall_fast_rest(int* __restrict__ dist, int* __restrict__ parent,
                                                          long long pitch, long long r, long long skip) {
  fw_fast_rest<FAST_DISTANCES>(dist, parent, pitch, r, skip);
}
