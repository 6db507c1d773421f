#include "sssp_common.cuh"
#include "sssp_batch_state.cuh"

// sssp_batch_gather_pairs copies each source's own columns (a pair list
// grouped by source) out of the batched searches' [groups][n][BT_LANES]
// distances: row r of the launch reports vertices
// columns[row_starts[r] .. row_starts[r + 1] - 1], written at the same
// positions of out_dist, and with out_parent not null their parents by the
// tight smallest in-neighbour rule (tight_parent; ids: see there). One thread per cell,
// blockIdx.y the group; row_starts holds k + 1 offsets from 0.
extern "C" __global__ void sssp_batch_gather_pairs(const long long* __restrict__ rev_offsets,
                                                   const int* __restrict__ rev_sources,
                                                   const int* __restrict__ rev_weights, const int* __restrict__ ids, long long n,
                                                   const int* __restrict__ dist, const int* __restrict__ sources,
                                                   long long k, const int* __restrict__ columns,
                                                   const long long* __restrict__ row_starts,
                                                   int* __restrict__ out_dist, int* __restrict__ out_parent) {
  const i64 g = blockIdx.y;
  const int* d = dist + g * n * BT_LANES;
  const int rows = (int)min((i64)BT_LANES, k - g * BT_LANES);
  const i64 lo = row_starts[g * BT_LANES], hi = row_starts[g * BT_LANES + rows];
  for (i64 c = lo + blockIdx.x * (i64)blockDim.x + threadIdx.x; c < hi; c += (i64)gridDim.x * blockDim.x) {
    int j = 0;  // the row of cell c: the last whose start is <= c
    while (j + 1 < rows && row_starts[g * BT_LANES + j + 1] <= c) ++j;
    const int v = columns[c];
    out_dist[c] = d[(i64)v * BT_LANES + j];
    if (out_parent != nullptr) {
      out_parent[c] = tight_parent(rev_offsets, rev_sources, rev_weights, ids, d, v, j, sources[g * BT_LANES + j]);
    }
  }
}
