#include "floyd_warshall_fast.cuh"

// skip_tile maps 0, 1, 2, ... onto the tile indices other than skip (none
// when skip is -1).
__device__ __forceinline__ i64 skip_tile(i64 t, i64 skip) { return (skip >= 0 && t >= skip) ? t + 1 : t; }

// floyd_warshall_min_plus relaxes 128 x 128 tiles of the matrix c through
// one tile of 128 pivots, distances only: c[i][j] = min(c[i][j],
// a[i][k] + b[k][j]) for the pivots k, where a is the pivots' column strip
// (as many rows as c, 128 columns) and b their row strip (128 rows, as
// many columns as c). Each of c, a and b has its own row pitch, so the
// strips may live in another buffer (a pivot panel received from another
// device, a super-tile staged from host memory) or in c itself. Launched as
// a grid of (column tiles, row tiles) 256-thread blocks; block (x, y)
// updates tile (skip_tile(y, skip_row), skip_tile(x, skip_col)). A strip
// may be the very tile a block updates (the block stores it only after
// reading it), but no other block of the launch may write a strip tile.
extern "C" __global__ void __launch_bounds__(256, 2) floyd_warshall_min_plus(int* __restrict__ c, long long c_pitch,
                                                                           const int* __restrict__ a, long long a_pitch,
                                                                           const int* __restrict__ b, long long b_pitch,
                                                                           long long skip_row, long long skip_col) {
  const i64 ti = skip_tile(blockIdx.y, skip_row), tj = skip_tile(blockIdx.x, skip_col);
  fast_min_plus<false>(c + ti * FAST_TILE * c_pitch + tj * FAST_TILE, nullptr, c_pitch, a + ti * FAST_TILE * a_pitch,
                       a_pitch, b + tj * FAST_TILE, b_pitch, nullptr);
}
