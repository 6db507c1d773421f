#include "sssp_common.cuh"
#include "sssp_batch_state.cuh"

// ch_permute copies finished PHAST sweeps into the layout of the batched
// searches, group blockIdx.y from lanes + group * stride ([count][BT_LANES]
// in swept order) to out + group * n * BT_LANES ([n][BT_LANES] in original
// ids), so the gathers of sssp_batch_gather*.cu read them as groups'
// distances: for i < count, out[v * BT_LANES + j] = lanes[x * BT_LANES + j]
// with v = vertices[i] (i when vertices is null) and x = index[i] (i when
// index is null). A whole sweep passes index = the ranks and no vertices;
// a restricted one its vertices' original ids and no index. A distance
// beyond cutoff becomes INF32 (the batched searches' rule for a cutoff).
// One warp per vertex: both sides are coalesced 128-byte lines.
extern "C" __global__ void ch_permute(const int* __restrict__ lanes, long long stride, const int* __restrict__ index,
                                      const int* __restrict__ vertices, long long count, long long n, long long cutoff,
                                      int* __restrict__ out) {
  const int lane = threadIdx.x & 31;
  const i64 warp = (blockIdx.x * (i64)blockDim.x + threadIdx.x) >> 5;
  const i64 warps = ((i64)gridDim.x * blockDim.x) >> 5;
  const int* d = lanes + blockIdx.y * stride;
  int* o = out + blockIdx.y * n * BT_LANES;
  for (i64 i = warp; i < count; i += warps) {
    const i64 x = index != nullptr ? index[i] : i;
    const i64 v = vertices != nullptr ? vertices[i] : i;
    const int dist = d[x * BT_LANES + lane];
    o[v * BT_LANES + lane] = dist > cutoff ? INF32 : dist;
  }
}
