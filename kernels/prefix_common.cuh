// Shared device code of the inclusive prefix sum over int64 in three
// launches (prefix_tile_sums.cu, prefix_scan_sums.cu, prefix_apply.cu):
// tiles of PF_TILE values, PF_THREADS threads of PF_ITEMS consecutive values
// each.
#pragma once

#define PF_THREADS 256
#define PF_ITEMS 16
#define PF_TILE (PF_THREADS * PF_ITEMS)

// block_exclusive_sum returns the sum of x over the block's threads before
// this one, and sets *total to the sum over all of them. Every thread of a
// PF_THREADS block must call it.
__device__ __forceinline__ long long block_exclusive_sum(long long x, long long* total) {
  __shared__ long long warp_sums[PF_THREADS / 32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  long long inclusive = x;
  for (int d = 1; d < 32; d <<= 1) {
    const long long y = __shfl_up_sync(0xFFFFFFFFu, inclusive, d);
    if (lane >= d) inclusive += y;
  }
  if (lane == 31) warp_sums[warp] = inclusive;
  __syncthreads();
  long long before = 0, all = 0;
  for (int w = 0; w < PF_THREADS / 32; ++w) {
    if (w < warp) before += warp_sums[w];
    all += warp_sums[w];
  }
  __syncthreads();  // warp_sums may be written again by the next call
  *total = all;
  return before + inclusive - x;
}
