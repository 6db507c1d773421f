#include "floyd_warshall_blocked.cuh"

// floyd_warshall_blocked_cross_parents is phase 2 of round r: the pivot row and column tiles, distances and parents;
// launched as grid (tiles-1, 2) of b x b blocks.
extern "C" __global__ void floyd_warshall_blocked_cross_parents(int* __restrict__ dist, int* __restrict__ parent,
                                                          long long pitch, long long r) {
  fw_blocked_cross<true>(dist, parent, pitch, r);
}
