#include "floyd_warshall_blocked.cuh"

// floyd_warshall_blocked_rest_parents is phase 3 of round r: all other tiles, distances and parents;
// launched as grid (tiles-1, tiles-1) of b x b blocks.
extern "C" __global__ void floyd_warshall_blocked_rest_parents(int* __restrict__ dist, int* __restrict__ parent,
                                                          long long pitch, long long r) {
  fw_blocked_rest<true>(dist, parent, pitch, r);
}
