#include "sssp_common.cuh"
#include "sssp_near_far_state.cuh"

// sssp_near_far_init prepares k near-far searches, row g from sources[g]:
// every word holds distance INF32 and no stamp except the source's,
// (0, 1): distance 0, waiting in the first near queue (stamp 1, step 0).
// No vertex is on the far pile, the threshold is delta and the far piles
// are empty. Grid-stride loop over the k * n cells; threads 0..k-1 also
// reset a source's state.
extern "C" __global__ void sssp_near_far_init(u64* __restrict__ words, int* __restrict__ on_far,
                                              int* __restrict__ near_queue, int* __restrict__ state,
                                              const int* __restrict__ sources, long long n, long long k,
                                              long long delta) {
  const i64 first = blockIdx.x * (i64)blockDim.x + threadIdx.x;
  const i64 stride = (i64)gridDim.x * blockDim.x;
  for (i64 i = first; i < n * k; i += stride) {
    const i64 g = i / n;
    words[i] = (i - g * n == sources[g]) ? pack_word(0, 1) : pack_word(INF32, 0);
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
