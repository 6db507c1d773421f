#include "apsp_common.cuh"

// apsp_init fills a pitch x pitch distance matrix with INF32 off the diagonal
// and 0 on it, and the parent matrix (when not null) with -1. Padding rows and
// columns become isolated vertices. 2-D grid-stride loop.
extern "C" __global__ void apsp_init(int* __restrict__ dist, int* __restrict__ parent, long long pitch) {
  for (i64 i = blockIdx.y; i < pitch; i += gridDim.y) {
    for (i64 j = blockIdx.x * (i64)blockDim.x + threadIdx.x; j < pitch; j += (i64)gridDim.x * blockDim.x) {
      dist[i * pitch + j] = (i == j) ? 0 : INF32;
      if (parent) parent[i * pitch + j] = -1;
    }
  }
}
