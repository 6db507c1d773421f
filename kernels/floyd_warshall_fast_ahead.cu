#include "floyd_warshall_fast.cuh"

// floyd_warshall_fast_ahead is phase 3 of round r of the fast variant
// for the tiles of row and column ahead = r + 1, distances only; launched
// as 2 * tiles - 3 blocks of 256 threads, ahead of the rest of phase 3 so
// that round r + 1 can start.
extern "C" __global__ void __launch_bounds__(256, 2) floyd_warshall_fast_ahead(int* __restrict__ dist, int* __restrict__ parent,
                                                           long long pitch, long long r, long long ahead,
                                                           long long tiles) {
  fw_fast_ahead<FAST_DISTANCES>(dist, parent, pitch, r, ahead, tiles);
}
