#include "apsp_common.cuh"

// apsp_negative_diagonal reports the smallest vertex whose diagonal entry is
// negative, a vertex on or reaching a negative cycle. The Floyd-Warshall
// kernels already report a vertex on a negative cycle when it first closes
// (before values can wrap); this final scan is a second, independent check.
// It scans vertices row0 .. row0+rows-1, dist pointing at row row0.
extern "C" __global__ void apsp_negative_diagonal(const int* __restrict__ dist, long long pitch,
                                                  int* __restrict__ negative, long long row0, long long rows) {
  for (i64 i = blockIdx.x * (i64)blockDim.x + threadIdx.x; i < rows; i += (i64)gridDim.x * blockDim.x) {
    if (dist[i * pitch + row0 + i] < 0) report_negative(negative, row0 + i);
  }
}
