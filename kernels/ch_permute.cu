#include "sssp_common.cuh"
#include "sssp_batch_state.cuh"

// ch_permute copies a finished PHAST sweep into the layout of the batched
// searches: out[v * BT_LANES + j] = lanes[rank[v] * BT_LANES + j] for every
// original vertex v, so the gathers of sssp_batch_gather*.cu read it as a
// group's distances. A distance beyond cutoff becomes INF32 (the batched
// searches' rule for a cutoff). One warp per vertex: both sides are
// coalesced 128-byte lines.
extern "C" __global__ void ch_permute(const int* __restrict__ lanes, const int* __restrict__ rank, long long n,
                                      long long cutoff, int* __restrict__ out) {
  const int lane = threadIdx.x & 31;
  const i64 warp = (blockIdx.x * (i64)blockDim.x + threadIdx.x) >> 5;
  const i64 warps = ((i64)gridDim.x * blockDim.x) >> 5;
  for (i64 v = warp; v < n; v += warps) {
    const int d = lanes[(i64)rank[v] * BT_LANES + lane];
    out[v * BT_LANES + lane] = d > cutoff ? INF32 : d;
  }
}
