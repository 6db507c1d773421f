#include "sssp_common.cuh"

// sssp_init starts one search per row of the [k][n] distance array: INF32
// everywhere except 0 at row g's source, sources[g]. Grid-stride loop over
// the k * n cells.
extern "C" __global__ void sssp_init(int* __restrict__ dist, const int* __restrict__ sources, long long n, long long k) {
  const i64 cells = n * k;
  for (i64 i = blockIdx.x * (i64)blockDim.x + threadIdx.x; i < cells; i += (i64)gridDim.x * blockDim.x) {
    const i64 g = i / n;
    dist[i] = (i - g * n == sources[g]) ? 0 : INF32;
  }
}
