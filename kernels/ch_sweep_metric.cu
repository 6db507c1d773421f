#include "sssp_common.cuh"
#include "sssp_batch_state.cuh"

// METRIC_LIMIT: a metric lane holds sums below it (int32).
#define METRIC_LIMIT 0x7FFFFFFF

// ch_sweep_metric is ch_sweep for a run that reports a metric beside the
// distance: besides the distance lanes it keeps, in metric_lanes (the same
// layout), the metric summed along each lane's path, and settles each
// vertex to the pair (distance, metric) that is smallest
// lexicographically over its seed and its Down arcs x -> r (distance
// down_weights, metric down_metric). That is the PHAST of the keyed
// hierarchy (graph.Key: weight << 32 | metric), whose distance part is
// the plain minimum, so the distances equal ch_sweep's. A metric lane is
// read only where its distance is below INF32. A distance sum that
// reaches INF32, or a settled metric that reaches METRIC_LIMIT, sets
// *overflow. A separate kernel keeps ch_sweep's loop free of the metric.
extern "C" __global__ void ch_sweep_metric(const long long* __restrict__ down_offsets,
                                           const int* __restrict__ down_tails, const int* __restrict__ down_weights,
                                           const int* __restrict__ down_metric, int* __restrict__ lanes,
                                           int* __restrict__ metric_lanes, long long stride, long long lo, long long hi,
                                           int* __restrict__ overflow) {
  const int lane = threadIdx.x & 31;
  const i64 warp = (blockIdx.x * (i64)blockDim.x + threadIdx.x) >> 5;
  const i64 warps = ((i64)gridDim.x * blockDim.x) >> 5;
  int* d = lanes + blockIdx.y * stride;
  int* dm = metric_lanes + blockIdx.y * stride;
  for (i64 r = lo + warp; r < hi; r += warps) {
    int best = d[r * BT_LANES + lane];
    i64 best_m = best < INF32 ? dm[r * BT_LANES + lane] : 0;
    bool over = false;
    for (i64 a = down_offsets[r]; a < down_offsets[r + 1]; ++a) {
      const i64 x = (i64)down_tails[a] * BT_LANES + lane;
      const int dx = d[x];
      if (dx < INF32) {
        const i64 c = (i64)dx + down_weights[a];
        const i64 cm = (i64)dm[x] + down_metric[a];
        if (c < best || (c == best && cm < best_m)) {
          best = (int)min(c, (i64)INF32);
          best_m = cm;
        }
        over |= c >= INF32;
      }
    }
    d[r * BT_LANES + lane] = best;
    if (best < INF32) {
      over |= best_m >= METRIC_LIMIT;
      dm[r * BT_LANES + lane] = (int)min(best_m, (i64)METRIC_LIMIT);
    }
    if (over) *overflow = 1;
  }
}
