#include "sssp_common.cuh"
#include "sssp_batch_state.cuh"

// sssp_batch_cells_write writes the cells within the cutoff of a launch of
// batched searches ([groups][n][BT_LANES] distances) as sparse rows: lane
// j of group g (row g * BT_LANES + j of the k of the launch) writes its
// cells of chunk c from position starts[(g * chunks + c) * BT_LANES + j]
// on, in vertex order: the distance at out_dist, the vertex at out_vertex
// and, with out_parent not null, its parent by the tight smallest
// in-neighbour rule (tight_parent). starts come from
// sssp_batch_cells_count's counts, scanned per row over the chunks, each
// row from where the previous one ended. Same walk as the count.
extern "C" __global__ void sssp_batch_cells_write(const long long* __restrict__ rev_offsets,
                                                  const int* __restrict__ rev_sources,
                                                  const int* __restrict__ rev_weights, const int* __restrict__ dist,
                                                  long long n, long long cutoff, const int* __restrict__ sources,
                                                  long long k, const long long* __restrict__ starts,
                                                  int* __restrict__ out_dist, int* __restrict__ out_vertex,
                                                  int* __restrict__ out_parent) {
  const i64 g = blockIdx.y;
  const int* d = dist + g * n * BT_LANES;
  const int lane = threadIdx.x & 31;
  if (g * BT_LANES + lane >= k) return;  // no row: its lanes were never searched
  const int source = sources[g * BT_LANES + lane];
  const i64 warps = (i64)gridDim.x * (blockDim.x >> 5);
  const i64 chunks = (n + BT_CELL_CHUNK - 1) / BT_CELL_CHUNK;
  for (i64 c = (i64)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5); c < chunks; c += warps) {
    const i64 end = min(n, (c + 1) * BT_CELL_CHUNK);
    i64 at = starts[(g * chunks + c) * BT_LANES + lane];
    for (i64 v = c * BT_CELL_CHUNK; v < end; ++v) {
      const int dv = d[v * BT_LANES + lane];
      if (dv < INF32 && dv <= cutoff) {
        out_dist[at] = dv;
        out_vertex[at] = (int)v;
        if (out_parent != nullptr) {
          out_parent[at] = tight_parent(rev_offsets, rev_sources, rev_weights, nullptr, d, (int)v, lane, source);
        }
        ++at;
      }
    }
  }
}
