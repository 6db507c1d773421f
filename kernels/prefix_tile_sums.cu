#include "sssp_common.cuh"
#include "prefix_common.cuh"

// prefix_tile_sums writes the sum of each tile of PF_TILE values of
// values[0..n) into sums[tile]: the first of the three launches of an
// inclusive prefix sum (then prefix_scan_sums, prefix_apply). One block of
// PF_THREADS threads per tile.
extern "C" __global__ void __launch_bounds__(PF_THREADS)
    prefix_tile_sums(const long long* __restrict__ values, long long n, long long* __restrict__ sums) {
  const i64 base = (i64)blockIdx.x * PF_TILE + (i64)threadIdx.x * PF_ITEMS;
  long long own = 0;
  for (int i = 0; i < PF_ITEMS; ++i) {
    if (base + i < n) own += values[base + i];
  }
  long long total;
  block_exclusive_sum(own, &total);
  if (threadIdx.x == 0) sums[blockIdx.x] = total;
}
