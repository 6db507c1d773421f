#include "sssp_common.cuh"

// sssp_dijkstra_minimum_final is the second pass of the minimum step, one
// block: the minimum of the blocks' partial minima, written to *mssp (the
// thesis reduces the partials on the CPU; doing it here keeps the loop free
// of host round trips). Blocks of at most 1024 threads.
extern "C" __global__ void sssp_dijkstra_minimum_final(const int* __restrict__ partial, long long parts,
                                                       int* __restrict__ mssp) {
  __shared__ int warps[32];
  int m = INF32;
  for (i64 i = threadIdx.x; i < parts; i += blockDim.x) m = min(m, partial[i]);
  for (int d = 16; d > 0; d >>= 1) m = min(m, __shfl_down_sync(0xFFFFFFFFu, m, d));
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) warps[warp] = m;
  __syncthreads();
  if (warp == 0) {
    m = lane < (blockDim.x + 31) / 32 ? warps[lane] : INF32;
    for (int d = 16; d > 0; d >>= 1) m = min(m, __shfl_down_sync(0xFFFFFFFFu, m, d));
    if (lane == 0) *mssp = m;
  }
}
