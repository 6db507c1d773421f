#include "floyd_warshall_blocked.cuh"

// floyd_warshall_blocked_cross is phase 2 of round r: the pivot row and column tiles, distances only;
// launched as grid (tiles-1, 2) of b x b blocks.
extern "C" __global__ void floyd_warshall_blocked_cross(int* __restrict__ dist, int* __restrict__ parent,
                                                          long long pitch, long long r) {
  fw_blocked_cross<false>(dist, parent, pitch, r);
}
