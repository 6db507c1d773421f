#include "sssp_common.cuh"

// sssp_bf_relax_stride is sssp_bf_relax_naive with a grid-stride loop
// (Bodra's bellmanFordRelaxStride): a grid smaller than n, each thread
// relaxing vertices u, u + stride, u + 2 stride, ...
extern "C" __global__ void sssp_bf_relax_stride(const long long* __restrict__ offsets, const int* __restrict__ targets,
                                                const int* __restrict__ weights, long long n,
                                                const int* __restrict__ prev, int* dist) {
  for (i64 u = blockIdx.x * (i64)blockDim.x + threadIdx.x; u < n; u += (i64)gridDim.x * blockDim.x) {
    const int du = prev[u];
    if (du == INF32) continue;
    relax_out_arcs(offsets, targets, weights, u, du, dist);
  }
}
