#include "sssp_common.cuh"
#include "sssp_batch_state.cuh"

// sssp_batch_keys_seed starts the keys of a metric search
// (sssp_batch_metric) from the distances sssp_batch_init wrote: each
// reached lane (its source, at 0) holds its distance with metric 0, every
// other lane distance INF32. cells is groups * n * BT_LANES; a grid-stride
// loop, one cell a thread, so reads and writes are coalesced.
extern "C" __global__ void sssp_batch_keys_seed(const int* __restrict__ dist, unsigned long long* __restrict__ keys,
                                                long long cells) {
  const i64 stride = (i64)gridDim.x * blockDim.x;
  for (i64 c = blockIdx.x * (i64)blockDim.x + threadIdx.x; c < cells; c += stride) {
    const int d = dist[c];
    keys[c] = (u64)(unsigned int)min(d, INF32) << 32;
  }
}
