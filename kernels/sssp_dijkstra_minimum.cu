#include "sssp_common.cuh"

// sssp_dijkstra_minimum is the first pass of the minimum step: each block
// reduces the distances of the unsettled vertices it covers (grid-stride)
// to one minimum, partial[blockIdx.x], through a shuffle reduction within
// warps and shared memory across them. Blocks of at most 1024 threads.
extern "C" __global__ void sssp_dijkstra_minimum(const int* __restrict__ dist, const int* __restrict__ unsettled,
                                                 long long n, int* __restrict__ partial) {
  int m = INF32;
  for (i64 v = blockIdx.x * (i64)blockDim.x + threadIdx.x; v < n; v += (i64)gridDim.x * blockDim.x) {
    if (unsettled[v]) m = min(m, dist[v]);
  }
  store_block_min(m, partial, blockIdx.x);
}
