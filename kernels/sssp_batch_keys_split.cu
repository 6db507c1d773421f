#include "sssp_common.cuh"
#include "sssp_batch_state.cuh"

// SPLIT_METRIC_LIMIT is MK_METRIC_LIMIT of sssp_batch_metric.cu: the clamp
// of a metric sum.
#define SPLIT_METRIC_LIMIT 0x7FFFFFFF

// sssp_batch_keys_split writes the keys a metric search (sssp_batch_metric)
// left as the distance and metric lanes ([groups][n][BT_LANES] int32 each,
// the layout every gather and sssp_batch_parents_metric read): the metric
// of an unreached lane is 0. A reached lane whose metric reached the clamp
// sets its group's BT_METRIC_OVERFLOW: the int32 metric is not exact.
// cells is groups * n * BT_LANES; one cell a thread, grid-stride.
extern "C" __global__ void sssp_batch_keys_split(const unsigned long long* __restrict__ keys, long long n,
                                                 long long cells, int* __restrict__ dist,
                                                 int* __restrict__ metric, int* __restrict__ state) {
  const i64 stride = (i64)gridDim.x * blockDim.x;
  for (i64 c = blockIdx.x * (i64)blockDim.x + threadIdx.x; c < cells; c += stride) {
    const u64 key = keys[c];
    const int d = (int)(key >> 32);
    const int m = (int)(key & 0xFFFFFFFFull);
    const bool reached = d < INF32;
    dist[c] = d;
    metric[c] = reached ? m : 0;
    if (reached && m >= SPLIT_METRIC_LIMIT) state[(c / (n * BT_LANES)) * BT_STATE + BT_METRIC_OVERFLOW] = 1;
  }
}
