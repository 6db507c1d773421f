#include "apsp_common.cuh"

// apsp_negative_diagonal reports the smallest vertex whose diagonal entry is
// negative, a vertex on or reaching a negative cycle. The Floyd-Warshall
// kernels already report a vertex on a negative cycle when it first closes
// (before values can wrap); this final scan is a second, independent check.
extern "C" __global__ void apsp_negative_diagonal(const int* __restrict__ dist, long long n, long long pitch,
                                                  int* __restrict__ negative) {
  for (i64 v = blockIdx.x * (i64)blockDim.x + threadIdx.x; v < n; v += (i64)gridDim.x * blockDim.x) {
    if (dist[v * pitch + v] < 0) report_negative(negative, v);
  }
}
