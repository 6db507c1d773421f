#include "floyd_warshall_fast.cuh"

// floyd_warshall_fast_rest_unrolled is floyd_warshall_fast_rest with the
// pivot loop of each chunk fully unrolled.
extern "C" __global__ void __launch_bounds__(256, 2) floyd_warshall_fast_rest_unrolled(int* __restrict__ dist, int* __restrict__ parent,
                                                          long long pitch, long long r, long long skip) {
  fw_fast_rest<FAST_DISTANCES, FAST_CHUNK>(dist, parent, pitch, r, skip);
}
