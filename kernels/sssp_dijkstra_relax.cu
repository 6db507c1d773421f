#include "sssp_common.cuh"

// sssp_dijkstra_relax is the relax step of the GPU Dijkstra: every frontier
// vertex f (settled in the last step) lowers the distance of each unsettled
// successor j to dist[f] + w(f, j). Several frontier vertices may reach the
// same j at once, so the update is an atomicMin: a plain read-compare-write
// could keep the larger of two racing values. Grid-stride loop.
extern "C" __global__ void sssp_dijkstra_relax(const long long* __restrict__ offsets, const int* __restrict__ targets,
                                               const int* __restrict__ weights, long long n, int* dist,
                                               const int* __restrict__ frontier, const int* __restrict__ unsettled) {
  for (i64 f = blockIdx.x * (i64)blockDim.x + threadIdx.x; f < n; f += (i64)gridDim.x * blockDim.x) {
    if (!frontier[f]) continue;
    const int df = dist[f];
    const i64 end = offsets[f + 1];
    for (i64 e = offsets[f]; e < end; ++e) {
      const int j = targets[e];
      if (unsettled[j]) atomicMin(dist + j, df + weights[e]);
    }
  }
}
