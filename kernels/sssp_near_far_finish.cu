#include "sssp_common.cuh"
#include "sssp_near_far_state.cuh"

// sssp_near_far_finish extracts the int32 distances of finished near-far
// searches from their words (distance in the high half). Grid-stride loop
// over the cells.
extern "C" __global__ void sssp_near_far_finish(const u64* __restrict__ words, int* __restrict__ dist, long long cells) {
  for (i64 i = blockIdx.x * (i64)blockDim.x + threadIdx.x; i < cells; i += (i64)gridDim.x * blockDim.x) {
    dist[i] = word_dist(words[i]);
  }
}
