#include "sssp_common.cuh"
#include "prefix_common.cuh"

// prefix_scan_sums turns the tiles' sums (prefix_tile_sums) into each
// tile's starting offset, in place: sums[t] becomes the sum of the tiles
// before t. One block of PF_THREADS threads walks them PF_TILE at a time.
extern "C" __global__ void __launch_bounds__(PF_THREADS) prefix_scan_sums(long long* __restrict__ sums, long long tiles) {
  long long carry = 0;
  for (i64 start = 0; start < tiles; start += PF_TILE) {
    const i64 base = start + (i64)threadIdx.x * PF_ITEMS;
    long long own = 0;
    for (int i = 0; i < PF_ITEMS; ++i) {
      if (base + i < tiles) own += sums[base + i];
    }
    long long total;
    long long before = carry + block_exclusive_sum(own, &total);
    for (int i = 0; i < PF_ITEMS; ++i) {
      if (base + i < tiles) {
        const long long x = sums[base + i];
        sums[base + i] = before;
        before += x;
      }
    }
    carry += total;
    __syncthreads();
  }
}
