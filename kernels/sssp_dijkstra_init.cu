#include "sssp_common.cuh"

// sssp_dijkstra_init starts the GPU Dijkstra of Martin, Torres and
// Gavilanes from source: distance 0 and in the frontier set F there,
// INF32 and in the unsettled set U everywhere else. Grid-stride loop.
extern "C" __global__ void sssp_dijkstra_init(int* __restrict__ dist, int* __restrict__ frontier,
                                              int* __restrict__ unsettled, long long n, long long source) {
  for (i64 v = blockIdx.x * (i64)blockDim.x + threadIdx.x; v < n; v += (i64)gridDim.x * blockDim.x) {
    const bool s = v == source;
    dist[v] = s ? 0 : INF32;
    frontier[v] = s;
    unsettled[v] = !s;
  }
}
