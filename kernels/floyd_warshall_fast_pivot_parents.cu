#include "floyd_warshall_fast.cuh"

// floyd_warshall_fast_pivot_parents is phase 1 of round r: the pivot tile of the fast
// variant, distances and parents; launched as one 32 x 32 block.
extern "C" __global__ void __launch_bounds__(1024) floyd_warshall_fast_pivot_parents(int* __restrict__ dist, int* __restrict__ parent,
                                                          long long pitch, long long r, int* __restrict__ negative) {
  fw_fast_pivot<true>(dist, parent, pitch, r, negative);
}
