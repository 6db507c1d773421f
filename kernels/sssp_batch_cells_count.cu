#include "sssp_common.cuh"
#include "sssp_batch_state.cuh"

// sssp_batch_cells_count counts, for every source of a launch of batched
// searches ([groups][n][BT_LANES] distances) and every chunk of
// BT_CELL_CHUNK vertices, the vertices within the cutoff (distance at most
// cutoff and below INF32): counts[(g * chunks + c) * BT_LANES + lane]. The
// host turns them into each lane's write positions for
// sssp_batch_cells_write, so that a row's cells come out in vertex order
// and only they cross to the host. A warp walks its chunk one vertex at a
// time, reading that vertex's 32 lanes as one line; blockIdx.y is the
// group, warps grid-stride over the chunks.
extern "C" __global__ void sssp_batch_cells_count(const int* __restrict__ dist, long long n, long long cutoff,
                                                  int* __restrict__ counts) {
  const i64 g = blockIdx.y;
  const int* d = dist + g * n * BT_LANES;
  const int lane = threadIdx.x & 31;
  const i64 warps = (i64)gridDim.x * (blockDim.x >> 5);
  const i64 chunks = (n + BT_CELL_CHUNK - 1) / BT_CELL_CHUNK;
  for (i64 c = (i64)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5); c < chunks; c += warps) {
    const i64 end = min(n, (c + 1) * BT_CELL_CHUNK);
    int kept = 0;
    for (i64 v = c * BT_CELL_CHUNK; v < end; ++v) {
      const int dv = d[v * BT_LANES + lane];
      kept += dv < INF32 && dv <= cutoff;
    }
    counts[(g * chunks + c) * BT_LANES + lane] = kept;
  }
}
