#include "floyd_warshall_blocked.cuh"

// floyd_warshall_blocked_pivot is phase 1 of round r: the pivot tile, distances only;
// launched as one b x b block.
extern "C" __global__ void floyd_warshall_blocked_pivot(int* __restrict__ dist, int* __restrict__ parent,
                                                          long long pitch, long long r, int* __restrict__ negative) {
  fw_blocked_pivot<false>(dist, parent, pitch, r, negative);
}
