#include "floyd_warshall_fast.cuh"

// floyd_warshall_fast_ahead_packed is phase 3 of round r of the fast
// variant for the tiles of row and column ahead = r + 1, with parents carried in the
// distances' low bits (see PACK_SHIFT: positive weights, distances below
// 2^22 - 1); launched like floyd_warshall_fast_ahead.
extern "C" __global__ void __launch_bounds__(256, 2) floyd_warshall_fast_ahead_packed(int* __restrict__ dist, int* __restrict__ parent,
                                                          long long pitch, long long r, long long ahead, long long tiles) {
  fw_fast_ahead<FAST_PACKED>(dist, parent, pitch, r, ahead, tiles);
}
