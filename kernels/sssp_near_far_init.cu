#include "sssp_common.cuh"
#include "sssp_near_far_state.cuh"

// sssp_near_far_init prepares k near-far searches, row g from sources[g]:
// distance 0 at the source and INF32 elsewhere, no vertex marked for a near
// queue (-1) or on the far pile (0), the source alone in the first near
// queue, the threshold at delta and the far piles empty. Grid-stride loop
// over the k * n cells; threads 0..k-1 also reset a source's state.
extern "C" __global__ void sssp_near_far_init(int* __restrict__ dist, int* __restrict__ mark,
                                              int* __restrict__ on_far, int* __restrict__ near_queue,
                                              int* __restrict__ state, const int* __restrict__ sources,
                                              long long n, long long k, long long delta) {
  const i64 first = blockIdx.x * (i64)blockDim.x + threadIdx.x;
  const i64 stride = (i64)gridDim.x * blockDim.x;
  for (i64 i = first; i < n * k; i += stride) {
    const i64 g = i / n;
    dist[i] = (i - g * n == sources[g]) ? 0 : INF32;
    mark[i] = -1;
    on_far[i] = 0;
  }
  for (i64 g = first; g < k; g += stride) {
    int* st = state + g * NF_STATE;
    for (int j = 0; j < NF_STATE; ++j) st[j] = 0;
    st[NF_NEAR] = 1;
    for (int j = 0; j < 3; ++j) st[NF_FAR_MIN + j] = INF32;
    st[NF_THRESHOLD] = (int)min(delta, (i64)INF32);
    near_queue[g * 2 * n] = sources[g];
  }
}
