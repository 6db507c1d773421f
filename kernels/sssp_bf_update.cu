#include "sssp_common.cuh"

// sssp_bf_update ends a Bellman-Ford round (Bodra's
// bellmanFordUpdateDistance*): prev takes dist's values, and a vertex whose
// distance dropped sets its flag (when flags is not null) and *changed, the
// round's entry of the host's early-exit array. Grid-stride loop.
extern "C" __global__ void sssp_bf_update(int* __restrict__ prev, const int* __restrict__ dist, long long n,
                                          int* __restrict__ flags, int* __restrict__ changed) {
  bool any = false;
  for (i64 u = blockIdx.x * (i64)blockDim.x + threadIdx.x; u < n; u += (i64)gridDim.x * blockDim.x) {
    const int d = dist[u];
    if (d < prev[u]) {
      prev[u] = d;
      if (flags) flags[u] = 1;
      any = true;
    }
  }
  if (__syncthreads_or(any) && threadIdx.x == 0) *changed = 1;
}
