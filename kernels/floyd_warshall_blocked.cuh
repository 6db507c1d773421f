// Device code of the blocked (three-phase) Floyd-Warshall with shared memory,
// after Katz and Kider: per round r over b x b tiles, (1) the pivot tile
// (r, r) on its own, (2) the tiles of pivot row r and pivot column r, each
// against the pivot tile, (3) every other tile against its pivot-row and
// pivot-column tiles. One thread per cell, b x b threads per block, b <= 32.
// The matrix pitch is a multiple of b, so no bounds checks are needed.
#pragma once
#include "apsp_common.cuh"

#define BLOCKED_MAX 32

// A tile in shared memory, padded by one column so that a warp's column
// reads fall in different banks.
typedef int blocked_tile[BLOCKED_MAX][BLOCKED_MAX + 1];

// fw_blocked_pivot closes tile (r, r) over its own b vertices. At the start
// of step k, dist[k][k] covers every intermediate vertex below k; if it is
// negative, k lies on a negative cycle (one whose other vertices are all
// smaller) and is reported. The first report comes before any value can
// wrap around; sums are clamped at -INF32 so none wraps inside this tile.
template <bool Parents>
__device__ __forceinline__ void fw_blocked_pivot(int* __restrict__ dist, int* __restrict__ parent, i64 pitch, i64 r,
                                                 int* __restrict__ negative) {
  __shared__ blocked_tile t, tp;
  const int b = blockDim.x, tx = threadIdx.x, ty = threadIdx.y;
  const i64 cell = (r * b + ty) * pitch + r * b + tx;
  t[ty][tx] = dist[cell];
  if (Parents) tp[ty][tx] = parent[cell];
  __syncthreads();
  for (int k = 0; k < b; ++k) {
    if (tx == k && ty == k && t[k][k] < 0) report_negative(negative, r * b + k);
    int s = clamp_low(t[ty][k] + t[k][tx]);
    if (s < t[ty][tx]) {
      t[ty][tx] = s;
      if (Parents) tp[ty][tx] = tp[k][tx];
    }
    __syncthreads();
  }
  dist[cell] = t[ty][tx];
  if (Parents) parent[cell] = tp[ty][tx];
}

// fw_blocked_cross updates the tiles of pivot row r (blockIdx.y == 0) and
// pivot column r (blockIdx.y == 1); blockIdx.x counts the other tiles.
template <bool Parents>
__device__ __forceinline__ void fw_blocked_cross(int* __restrict__ dist, int* __restrict__ parent, i64 pitch, i64 r) {
  __shared__ blocked_tile own, piv, ownp, pivp;
  const int b = blockDim.x, tx = threadIdx.x, ty = threadIdx.y;
  const i64 t = blockIdx.x + (blockIdx.x >= r);
  const bool inRow = blockIdx.y == 0;
  const i64 ti = inRow ? r : t, tj = inRow ? t : r;
  const i64 cell = (ti * b + ty) * pitch + tj * b + tx;
  const i64 pcell = (r * b + ty) * pitch + r * b + tx;
  own[ty][tx] = dist[cell];
  piv[ty][tx] = dist[pcell];
  if (Parents) {
    ownp[ty][tx] = parent[cell];
    pivp[ty][tx] = parent[pcell];
  }
  __syncthreads();
  for (int k = 0; k < b; ++k) {
    int s = inRow ? piv[ty][k] + own[k][tx] : own[ty][k] + piv[k][tx];
    if (s < own[ty][tx]) {
      own[ty][tx] = s;
      if (Parents) ownp[ty][tx] = inRow ? ownp[k][tx] : pivp[k][tx];
    }
    __syncthreads();
  }
  dist[cell] = own[ty][tx];
  if (Parents) parent[cell] = ownp[ty][tx];
}

// fw_blocked_rest updates every tile outside pivot row and column r: cell
// (i, j) takes min over the pivot vertices k of col[i][k] + row[k][j]. No
// cell of the tile is read by another thread, so the k loop needs no
// barrier, and an unchanged cell is not written back.
template <bool Parents>
__device__ __forceinline__ void fw_blocked_rest(int* __restrict__ dist, int* __restrict__ parent, i64 pitch, i64 r) {
  __shared__ blocked_tile col, row, rowp;
  const int b = blockDim.x, tx = threadIdx.x, ty = threadIdx.y;
  const i64 ti = blockIdx.y + (blockIdx.y >= r), tj = blockIdx.x + (blockIdx.x >= r);
  const i64 cell = (ti * b + ty) * pitch + tj * b + tx;
  const i64 rcell = (r * b + ty) * pitch + tj * b + tx;
  col[ty][tx] = dist[(ti * b + ty) * pitch + r * b + tx];
  row[ty][tx] = dist[rcell];
  if (Parents) rowp[ty][tx] = parent[rcell];
  const int old = dist[cell];
  __syncthreads();
  int c = old, p = 0;
  for (int k = 0; k < b; ++k) {
    int s = col[ty][k] + row[k][tx];
    if (Parents) {
      if (s < c) {
        c = s;
        p = rowp[k][tx];
      }
    } else {
      c = min(s, c);
    }
  }
  if (c != old) {
    dist[cell] = c;
    if (Parents) parent[cell] = p;
  }
}
