#include "sssp_common.cuh"

// ch_seed writes the seeds of a PHAST sweep into lanes ([n][BT_LANES]
// int32, hierarchy ids, already filled with INF32): cell at[i] (vertex *
// BT_LANES + lane) gets dist[i], the upward-search distance of that lane's
// source to that vertex. The host lists each cell at most once.
extern "C" __global__ void ch_seed(int* __restrict__ lanes, const long long* __restrict__ at,
                                   const int* __restrict__ dist, long long count) {
  const i64 stride = (i64)gridDim.x * blockDim.x;
  for (i64 i = blockIdx.x * (i64)blockDim.x + threadIdx.x; i < count; i += stride) lanes[at[i]] = dist[i];
}
