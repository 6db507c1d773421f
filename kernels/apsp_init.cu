#include "apsp_common.cuh"

// apsp_init fills rows row0 .. row0+rows-1 of a distance matrix pitch
// columns wide with INF32 off the diagonal and 0 on it, and the parent
// matrix (when not null) with -1; dist and parent point at row row0 (a
// slab of the matrix). Padding rows and columns become isolated vertices.
// 2-D grid-stride loop.
extern "C" __global__ void apsp_init(int* __restrict__ dist, int* __restrict__ parent, long long pitch,
                          long long row0, long long rows) {
  for (i64 i = blockIdx.y; i < rows; i += gridDim.y) {
    for (i64 j = blockIdx.x * (i64)blockDim.x + threadIdx.x; j < pitch; j += (i64)gridDim.x * blockDim.x) {
      dist[i * pitch + j] = (row0 + i == j) ? 0 : INF32;
      if (parent) parent[i * pitch + j] = -1;
    }
  }
}
