#include "sssp_common.cuh"
#include "prefix_common.cuh"

// prefix_apply replaces values[0..n) by their inclusive prefix sums, given
// each tile's starting offset (prefix_scan_sums): the last of the three
// launches. One block of PF_THREADS threads per tile.
extern "C" __global__ void __launch_bounds__(PF_THREADS)
    prefix_apply(long long* __restrict__ values, long long n, const long long* __restrict__ offsets) {
  const i64 base = (i64)blockIdx.x * PF_TILE + (i64)threadIdx.x * PF_ITEMS;
  long long own = 0;
  for (int i = 0; i < PF_ITEMS; ++i) {
    if (base + i < n) own += values[base + i];
  }
  long long total;
  long long sum = offsets[blockIdx.x] + block_exclusive_sum(own, &total);
  for (int i = 0; i < PF_ITEMS; ++i) {
    if (base + i < n) {
      sum += values[base + i];
      values[base + i] = sum;
    }
  }
}
