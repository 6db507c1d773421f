#include "floyd_warshall_blocked.cuh"

// floyd_warshall_blocked_rest is phase 3 of round r: all other tiles, distances only;
// launched as grid (tiles-1, tiles-1) of b x b blocks.
extern "C" __global__ void floyd_warshall_blocked_rest(int* __restrict__ dist, int* __restrict__ parent,
                                                          long long pitch, long long r) {
  fw_blocked_rest<false>(dist, parent, pitch, r);
}
