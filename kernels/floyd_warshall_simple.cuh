// Device code of the one-launch-per-k Floyd-Warshall kernels (naive: one
// thread per cell; row: one thread per row). Each has a distances-only and a
// with-parents entry point, in their own .cu files.
#pragma once
#include "apsp_common.cuh"

// fw_naive_step relaxes cell (i, j) of an n x n matrix through vertex k.
// During step k neither row k nor column k changes unless dist[k][k] < 0, so
// the unsynchronised reads are safe. At the start of step k, dist[k][k]
// covers every intermediate vertex below k; if it is negative, k lies on a
// negative cycle and the thread of cell (k, k) reports it. The first report
// comes before any value can wrap around.
template <bool Parents>
__device__ __forceinline__ void fw_naive_step(int* __restrict__ dist, int* __restrict__ parent, i64 n, i64 pitch,
                                              i64 k, int* __restrict__ negative) {
  i64 j = blockIdx.x * (i64)blockDim.x + threadIdx.x;
  i64 i = blockIdx.y * (i64)blockDim.y + threadIdx.y;
  if (i >= n || j >= n) return;
  int dij = dist[i * pitch + j];
  if (i == k && j == k && dij < 0) report_negative(negative, k);
  int s = dist[i * pitch + k] + dist[k * pitch + j];
  if (s < dij) {
    dist[i * pitch + j] = s;
    if (Parents) parent[i * pitch + j] = parent[k * pitch + j];
  }
}

// fw_row_step relaxes row i through vertex k, one thread per row. A row whose
// distance to k is INF32 cannot gain a real path through k and is skipped.
template <bool Parents>
__device__ __forceinline__ void fw_row_step(int* __restrict__ dist, int* __restrict__ parent, i64 n, i64 pitch,
                                            i64 k, int* __restrict__ negative) {
  i64 i = blockIdx.x * (i64)blockDim.x + threadIdx.x;
  if (i >= n) return;
  int dik = dist[i * pitch + k];
  if (i == k && dik < 0) report_negative(negative, k);
  if (dik >= INF32) return;
  int* row = dist + i * pitch;
  const int* rowk = dist + k * pitch;
  for (i64 j = 0; j < n; ++j) {
    int s = dik + rowk[j];
    if (s < row[j]) {
      row[j] = s;
      if (Parents) parent[i * pitch + j] = parent[k * pitch + j];
    }
  }
}
