#include "sssp_common.cuh"

// sssp_bf_relax_flags is the grid-stride round restricted to flagged
// vertices (Bodra's bellmanFordRelaxStrideFlag): only a vertex whose
// distance dropped in the previous round can improve its out-neighbours, so
// the others skip their arcs. The flag is cleared as the vertex is taken.
extern "C" __global__ void sssp_bf_relax_flags(const long long* __restrict__ offsets, const int* __restrict__ targets,
                                               const int* __restrict__ weights, long long n,
                                               const int* __restrict__ prev, int* dist, int* __restrict__ flags) {
  for (i64 u = blockIdx.x * (i64)blockDim.x + threadIdx.x; u < n; u += (i64)gridDim.x * blockDim.x) {
    if (!flags[u]) continue;
    flags[u] = 0;
    const int du = prev[u];
    if (du == INF32) continue;
    relax_out_arcs(offsets, targets, weights, u, du, dist);
  }
}
