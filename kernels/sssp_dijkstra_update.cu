#include "sssp_common.cuh"

// sssp_dijkstra_update is the update step of the GPU Dijkstra: the new
// frontier F is the unsettled vertices at the minimum distance *mssp, which
// leave U (they are settled: with non-negative weights nothing can lower
// them). When *mssp is INF32 no unsettled vertex is reachable and the search
// is over: F empties, U stays, and *done is set for the host, which checks
// it once per batch of steps. Grid-stride loop.
extern "C" __global__ void sssp_dijkstra_update(const int* __restrict__ dist, int* __restrict__ frontier,
                                                int* __restrict__ unsettled, long long n,
                                                const int* __restrict__ mssp, int* __restrict__ done) {
  const int m = *mssp;
  if (m == INF32 && blockIdx.x == 0 && threadIdx.x == 0) *done = 1;
  for (i64 v = blockIdx.x * (i64)blockDim.x + threadIdx.x; v < n; v += (i64)gridDim.x * blockDim.x) {
    const bool settle = m != INF32 && unsettled[v] && dist[v] == m;
    frontier[v] = settle;
    if (settle) unsettled[v] = 0;
  }
}
