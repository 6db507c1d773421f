#include "sssp_common.cuh"
#include "sssp_batch_state.cuh"

// keyed_parent is tight_parent for a run that reports a metric: the
// in-neighbour u of smallest vertex id whose arc closes both sums,
// dist[u] + w(u, v) == dist[v] and metric[u] + m(u, v) == metric[v], so
// the parents follow the path shortest by (distance, metric) whose metric
// the run reports (paths.NewKeyedParentFinder on the host). -1 for the
// lane's source and unreachable vertices; ids as in tight_parent.
__device__ __forceinline__ int keyed_parent(const long long* __restrict__ rev_offsets,
                                            const int* __restrict__ rev_sources, const int* __restrict__ rev_weights,
                                            const int* __restrict__ rev_metric, const int* __restrict__ ids,
                                            const int* __restrict__ dist, const int* __restrict__ metric, int v, int j,
                                            int source) {
  const i64 at = (i64)v * BT_LANES + j;
  const int dv = dist[at];
  if (dv >= INF32 || v == source) return -1;
  const int mv = metric[at];
  int best = -1, best_id = 0;
  const i64 end = __ldg(rev_offsets + v + 1);
  for (i64 e = __ldg(rev_offsets + v); e < end; ++e) {
    const int u = __ldg(rev_sources + e);
    const i64 ua = (i64)u * BT_LANES + j;
    const int du = dist[ua];
    if (du < INF32 && (i64)du + __ldg(rev_weights + e) == dv && (i64)metric[ua] + __ldg(rev_metric + e) == mv) {
      const int id = ids != nullptr ? __ldg(ids + u) : u;
      if (best < 0 || id < best_id) best = u, best_id = id;
    }
  }
  return best;
}

// sssp_batch_parents_metric writes the parents of a launch's cells by the
// keyed rule (keyed_parent) from the groups' distances and metrics
// ([groups][n][BT_LANES] each), in the layouts sssp_batch_gather (row_starts
// null: out_parent[r * ncolumns + c] for vertex columns[c], or c when
// columns is null) and sssp_batch_gather_pairs (row_starts: row r's cells
// at row_starts[r]..) write their distances. Lanes run fastest, so the
// reads of one vertex's lanes are coalesced. blockIdx.y is the group.
extern "C" __global__ void sssp_batch_parents_metric(const long long* __restrict__ rev_offsets,
                                                     const int* __restrict__ rev_sources,
                                                     const int* __restrict__ rev_weights,
                                                     const int* __restrict__ rev_metric, const int* __restrict__ ids,
                                                     long long n, const int* __restrict__ dist,
                                                     const int* __restrict__ metric, const int* __restrict__ sources,
                                                     long long k, const int* __restrict__ columns, long long ncolumns,
                                                     const long long* __restrict__ row_starts,
                                                     int* __restrict__ out_parent) {
  const i64 g = blockIdx.y;
  const int* d = dist + g * n * BT_LANES;
  const int* dm = metric + g * n * BT_LANES;
  const int rows = (int)min((i64)BT_LANES, k - g * BT_LANES);
  const i64 step = (i64)gridDim.x * blockDim.x;
  if (row_starts == nullptr) {
    for (i64 i = blockIdx.x * (i64)blockDim.x + threadIdx.x; i < ncolumns * BT_LANES; i += step) {
      const int j = (int)(i % BT_LANES);
      const i64 c = i / BT_LANES;
      if (j >= rows) continue;
      const int v = columns != nullptr ? columns[c] : (int)c;
      out_parent[(g * BT_LANES + j) * ncolumns + c] =
          keyed_parent(rev_offsets, rev_sources, rev_weights, rev_metric, ids, d, dm, v, j, sources[g * BT_LANES + j]);
    }
    return;
  }
  const i64 lo = row_starts[g * BT_LANES], hi = row_starts[g * BT_LANES + rows];
  for (i64 c = lo + blockIdx.x * (i64)blockDim.x + threadIdx.x; c < hi; c += step) {
    int j = 0;  // the row of cell c: the last whose start is <= c
    while (j + 1 < rows && row_starts[g * BT_LANES + j + 1] <= c) ++j;
    out_parent[c] = keyed_parent(rev_offsets, rev_sources, rev_weights, rev_metric, ids, d, dm, columns[c], j,
                                 sources[g * BT_LANES + j]);
  }
}
