#include "sssp_common.cuh"
#include "sssp_batch_state.cuh"

// sssp_batch_init prepares the batched near-far searches of the k sources
// of a launch: source r is lane r % BT_LANES of group r / BT_LANES. Every
// distance is INF32 but each source's own (0 in its lane); a source vertex
// is pending in the lanes it starts and waits once in its group's first
// near queue (stamp 1, step 0), however many lanes it starts. Lanes beyond
// k stay INF32 and never pending. The threshold is delta. A grid-stride loop
// over the groups * n * BT_LANES cells (one thread per cell, so the writes
// are coalesced); threads 0..groups-1 also reset a group's state and queue,
// which no cell thread touches.
extern "C" __global__ void sssp_batch_init(int* __restrict__ dist, unsigned int* __restrict__ pending,
                                           unsigned int* __restrict__ queued, int* __restrict__ near_queue,
                                           int* __restrict__ state, const int* __restrict__ sources, long long n,
                                           long long k, long long delta) {
  const i64 first = blockIdx.x * (i64)blockDim.x + threadIdx.x;
  const i64 stride = (i64)gridDim.x * blockDim.x;
  const i64 groups = (k + BT_LANES - 1) / BT_LANES;
  for (i64 c = first; c < groups * n * BT_LANES; c += stride) {
    const i64 i = c / BT_LANES;  // group * n + vertex
    const i64 g = i / n;
    const int v = (int)(i - g * n);
    const int j = (int)(c - i * BT_LANES);
    const i64 r = g * BT_LANES + j;
    const bool start = r < k && sources[r] == v;
    dist[c] = start ? 0 : INF32;
    const unsigned int lanes = __ballot_sync(0xFFFFFFFFu, start);  // the warp holds this vertex's 32 lanes (blocks of whole warps)
    if (j == 0) {
      pending[i] = lanes;
      queued[i] = lanes ? 1u : 0u;
    }
  }
  for (i64 g = first; g < groups; g += stride) {
    int* st = state + g * BT_STATE;
    for (int j = 0; j < BT_STATE; ++j) st[j] = 0;
    for (int j = 0; j < 3; ++j) st[BT_FAR_MIN + j] = INF32;
    st[BT_THRESHOLD] = (int)min(delta, (i64)INF32);
    int len = 0;
    int* q = near_queue + g * 2 * n;
    for (int j = 0; j < BT_LANES && g * BT_LANES + j < k; ++j) {
      const int s = sources[g * BT_LANES + j];
      bool seen = false;
      for (int i = 0; i < j; ++i) seen |= sources[g * BT_LANES + i] == s;
      if (!seen) q[len++] = s;
    }
    st[BT_NEAR] = len;
  }
}
