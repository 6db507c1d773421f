#include "floyd_warshall_blocked.cuh"

// floyd_warshall_blocked_pivot_parents is phase 1 of round r: the pivot tile, distances and parents;
// launched as one b x b block.
extern "C" __global__ void floyd_warshall_blocked_pivot_parents(int* __restrict__ dist, int* __restrict__ parent,
                                                          long long pitch, long long r, int* __restrict__ negative) {
  fw_blocked_pivot<true>(dist, parent, pitch, r, negative);
}
