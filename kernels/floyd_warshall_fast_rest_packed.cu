#include "floyd_warshall_fast.cuh"

// floyd_warshall_fast_rest_packed is phase 3 of round r of the fast
// variant for every tile outside row and column r (and skip, unless -1), with parents carried in the
// distances' low bits (see PACK_SHIFT: positive weights, distances below
// 2^22 - 1); launched like floyd_warshall_fast_rest.
extern "C" __global__ void __launch_bounds__(256, 2) floyd_warshall_fast_rest_packed(int* __restrict__ dist, int* __restrict__ parent,
                                                          long long pitch, long long r, long long skip) {
  fw_fast_rest<FAST_PACKED>(dist, parent, pitch, r, skip);
}
