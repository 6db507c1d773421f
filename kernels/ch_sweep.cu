#include "sssp_common.cuh"
#include "sssp_batch_state.cuh"

// ch_sweep settles one level of a contraction hierarchy for the groups of
// a PHAST sweep (kernels/ch_*.cu, internal/gpu/ch_sweep_cuda.go), group
// blockIdx.y holding BT_LANES sources. lanes is [groups][count][BT_LANES]
// int32 over the swept vertices (the hierarchy, or the part of it that
// can reach the asked columns, in hierarchy order; stride = count *
// BT_LANES per group), holding each source's upward-search distance (or
// INF32) before the sweep reaches a vertex and its final distance after.
// The level's vertices lo..hi-1 share no arc, and every Down arc of one
// comes from a higher level, already final, so each vertex is
// independent: one warp per vertex, one thread per lane, and the warp
// reads a tail's 32 lanes as one coalesced 128-byte line while the arc
// itself is the same word for every thread. A sum that reaches INF32 sets
// *overflow: the int32 distances would not be exact.
extern "C" __global__ void ch_sweep(const long long* __restrict__ down_offsets, const int* __restrict__ down_tails,
                                    const int* __restrict__ down_weights, int* __restrict__ lanes, long long stride,
                                    long long lo, long long hi, int* __restrict__ overflow) {
  const int lane = threadIdx.x & 31;
  const i64 warp = (blockIdx.x * (i64)blockDim.x + threadIdx.x) >> 5;
  const i64 warps = ((i64)gridDim.x * blockDim.x) >> 5;
  int* d = lanes + blockIdx.y * stride;
  for (i64 r = lo + warp; r < hi; r += warps) {
    int best = d[r * BT_LANES + lane];
    bool over = false;
    for (i64 a = down_offsets[r]; a < down_offsets[r + 1]; ++a) {
      const int dx = d[(i64)down_tails[a] * BT_LANES + lane];
      if (dx < INF32) {
        const i64 c = (i64)dx + down_weights[a];
        if (c < best) best = (int)c;
        over |= c >= INF32;
      }
    }
    d[r * BT_LANES + lane] = best;
    if (over) *overflow = 1;
  }
}
