#include "sssp_common.cuh"
#include "sssp_batch_state.cuh"

// BT_GATHER_WARPS is the warps per block of sssp_batch_gather: each holds a
// 32 x 32 tile of distances and one of parents in shared memory.
#define BT_GATHER_WARPS 4

// sssp_batch_gather copies the columns every source reports out of the
// batched searches' [groups][n][BT_LANES] distances into row-major rows:
// out_dist[r * ncolumns + c] is the distance from source r (of the k of
// the launch) to vertex columns[c] (to vertex c when columns is null), and
// with out_parent not null its parent by the tight smallest in-neighbour
// rule (tight_parent) over the reverse arcs (ids: see tight_parent). Each warp transposes tiles of
// 32 columns x 32 lanes through shared memory, so both the reads (a
// vertex's lanes) and the writes (a row's columns) are coalesced.
// blockIdx.y is the group.
extern "C" __global__ void sssp_batch_gather(const long long* __restrict__ rev_offsets,
                                             const int* __restrict__ rev_sources,
                                             const int* __restrict__ rev_weights, const int* __restrict__ ids, long long n,
                                             const int* __restrict__ dist, const int* __restrict__ sources,
                                             long long k, const int* __restrict__ columns, long long ncolumns,
                                             int* __restrict__ out_dist, int* __restrict__ out_parent) {
  __shared__ int dist_tile[BT_GATHER_WARPS][32][33];
  __shared__ int parent_tile[BT_GATHER_WARPS][32][33];
  const i64 g = blockIdx.y;
  const int* d = dist + g * n * BT_LANES;
  const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  const int rows = (int)min((i64)BT_LANES, k - g * BT_LANES);
  const int source = lane < rows ? sources[g * BT_LANES + lane] : -1;
  const i64 tiles = (ncolumns + 31) / 32;
  for (i64 t = (i64)blockIdx.x * BT_GATHER_WARPS + w; t < tiles; t += (i64)gridDim.x * BT_GATHER_WARPS) {
    for (int i = 0; i < 32; ++i) {
      const i64 c = t * 32 + i;
      if (c >= ncolumns) break;
      const int v = columns != nullptr ? columns[c] : (int)c;
      dist_tile[w][i][lane] = d[(i64)v * BT_LANES + lane];
      if (out_parent != nullptr) {
        parent_tile[w][i][lane] = lane < rows ? tight_parent(rev_offsets, rev_sources, rev_weights, ids, d, v, lane, source) : -1;
      }
    }
    __syncwarp();
    const i64 c = t * 32 + lane;
    if (c < ncolumns) {
      for (int j = 0; j < rows; ++j) {
        const i64 at = (g * BT_LANES + j) * ncolumns + c;
        out_dist[at] = dist_tile[w][lane][j];
        if (out_parent != nullptr) out_parent[at] = parent_tile[w][lane][j];
      }
    }
    __syncwarp();
  }
}
