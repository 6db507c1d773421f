#include "sssp_common.cuh"

// sssp_dijkstra_minimum_final is the second pass of the minimum step, one
// block: the minimum of the blocks' partial minima, written to *mssp (the
// thesis reduces the partials on the CPU; doing it here keeps the loop free
// of host round trips). Blocks of at most 1024 threads.
extern "C" __global__ void sssp_dijkstra_minimum_final(const int* __restrict__ partial, long long parts,
                                                       int* __restrict__ mssp) {
  int m = INF32;
  for (i64 i = threadIdx.x; i < parts; i += blockDim.x) m = min(m, partial[i]);
  store_block_min(m, mssp, 0);
}
