#include "apsp_common.cuh"

// apsp_finish turns every distance above threshold back into INF32 (and its
// parent into -1). With negative arcs, a relaxation through an unreachable
// vertex yields INF32 + w < INF32; the host only runs the GPU path when such
// values stay above every real distance (threshold = the distance bound), so
// this pass restores exact results. It covers rows rows of n columns
// (a slab of the matrix, or all of it).
extern "C" __global__ void apsp_finish(int* __restrict__ dist, int* __restrict__ parent, long long n,
                                       long long pitch, long long threshold, long long rows) {
  for (i64 i = blockIdx.y; i < rows; i += gridDim.y) {
    for (i64 j = blockIdx.x * (i64)blockDim.x + threadIdx.x; j < n; j += (i64)gridDim.x * blockDim.x) {
      if (dist[i * pitch + j] > threshold) {
        dist[i * pitch + j] = INF32;
        if (parent) parent[i * pitch + j] = -1;
      }
    }
  }
}
