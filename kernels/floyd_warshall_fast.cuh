// Device code of the fast Floyd-Warshall: the three phases of the blocked
// algorithm over 128 x 128 tiles, built so that phase 3, which does all but
// a 2/tiles fraction of the n^3 relaxations, runs at the add-min rate of the
// chip:
//
//   - phase 3: 256 threads per tile, each owning an 8 x 8 block of cells in
//     registers (rows 4*ty+{0..3} and 64+4*ty+{0..3}, likewise columns, so
//     that a warp's 16-byte shared loads are conflict-free or broadcast).
//     The pivot column and pivot row tiles pass through shared memory in
//     chunks of FAST_CHUNK pivot vertices; per pivot vertex a thread does
//     four 16-byte shared loads and 64 min(a + b, c) that ptxas fuses into
//     VIADDMNMX.
//   - phases 1 and 2: 1024 threads per tile, 4 x 4 cells each (rows ty+32a,
//     columns tx+32b). They walk the pivot vertices one by one, the owners
//     of row and column k publishing them through shared memory.
//
// The matrix pitch is a multiple of FAST_TILE (the host pads n), rows are
// 16-byte aligned, and padding vertices are isolated.
#pragma once
#include "apsp_common.cuh"

#define FAST_TILE 128
#define FAST_CHUNK 32
#define FAST_CHUNK_PARENTS 16
// FAST_UNCHANGED marks a phase-3 cell whose parent was not replaced (no
// vertex id or -1 takes this value), so only improved parents are stored.
#define FAST_UNCHANGED (-2)

// fw_fast_pivot closes tile (r, r) over its 128 vertices, clamping sums at
// -INF32 and reporting pivot vertex k when dist[k][k] is negative at the
// start of step k (see fw_blocked_pivot).
template <bool Parents>
__device__ __forceinline__ void fw_fast_pivot(int* __restrict__ dist, int* __restrict__ parent, i64 pitch, i64 r,
                                              int* __restrict__ negative) {
  __shared__ int rowk[FAST_TILE], colk[FAST_TILE], rowkp[FAST_TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const i64 base = r * FAST_TILE * pitch + r * FAST_TILE;
  int c[4][4], p[4][4];
#pragma unroll
  for (int a = 0; a < 4; ++a)
#pragma unroll
    for (int b = 0; b < 4; ++b) {
      c[a][b] = dist[base + (ty + 32 * a) * pitch + tx + 32 * b];
      if (Parents) p[a][b] = parent[base + (ty + 32 * a) * pitch + tx + 32 * b];
    }
#pragma unroll
  for (int a = 0; a < 4; ++a) {
    for (int kk = 0; kk < 32; ++kk) {
      if (ty == kk) {
#pragma unroll
        for (int b = 0; b < 4; ++b) {
          rowk[tx + 32 * b] = c[a][b];
          if (Parents) rowkp[tx + 32 * b] = p[a][b];
        }
      }
      if (tx == kk) {
#pragma unroll
        for (int a2 = 0; a2 < 4; ++a2) colk[ty + 32 * a2] = c[a2][a];
        if (ty == kk && c[a][a] < 0) report_negative(negative, r * FAST_TILE + 32 * a + kk);
      }
      __syncthreads();
#pragma unroll
      for (int a2 = 0; a2 < 4; ++a2)
#pragma unroll
        for (int b = 0; b < 4; ++b) {
          int s = clamp_low(colk[ty + 32 * a2] + rowk[tx + 32 * b]);
          if (Parents) {
            if (s < c[a2][b]) {
              c[a2][b] = s;
              p[a2][b] = rowkp[tx + 32 * b];
            }
          } else {
            c[a2][b] = min(s, c[a2][b]);
          }
        }
      __syncthreads();
    }
  }
#pragma unroll
  for (int a = 0; a < 4; ++a)
#pragma unroll
    for (int b = 0; b < 4; ++b) {
      dist[base + (ty + 32 * a) * pitch + tx + 32 * b] = c[a][b];
      if (Parents) parent[base + (ty + 32 * a) * pitch + tx + 32 * b] = p[a][b];
    }
}

// fw_fast_cross updates the tiles of pivot row r (blockIdx.y == 0) and pivot
// column r (blockIdx.y == 1). The pivot tile is read-only here; it is staged
// in shared memory 32 pivot vertices at a time (for a row tile, its column
// strip, transposed; for a column tile, its row strip), while the tile's own
// row or column k is published by its owners at each step.
template <bool Parents>
__device__ __forceinline__ void fw_fast_cross(int* __restrict__ dist, int* __restrict__ parent, i64 pitch, i64 r) {
  __shared__ int strip[32][FAST_TILE];
  __shared__ int stripp[Parents ? 32 : 1][FAST_TILE];
  __shared__ int line[FAST_TILE], linep[FAST_TILE];
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * 32 + tx;
  const i64 t = blockIdx.x + (blockIdx.x >= r);
  const bool inRow = blockIdx.y == 0;
  const i64 base = (inRow ? r : t) * FAST_TILE * pitch + (inRow ? t : r) * FAST_TILE;
  const i64 pbase = r * FAST_TILE * pitch + r * FAST_TILE;
  int c[4][4], p[4][4];
#pragma unroll
  for (int a = 0; a < 4; ++a)
#pragma unroll
    for (int b = 0; b < 4; ++b) {
      c[a][b] = dist[base + (ty + 32 * a) * pitch + tx + 32 * b];
      if (Parents) p[a][b] = parent[base + (ty + 32 * a) * pitch + tx + 32 * b];
    }
#pragma unroll
  for (int a = 0; a < 4; ++a) {
    // Stage pivot vertices 32a .. 32a+31 of the pivot tile.
    if (inRow) {
      // strip[kk][i] = pivot[i][32a + kk]: thread reads 4 consecutive kk of row i.
      const int i = tid >> 3, kk4 = (tid & 7) * 4;
      const int4 v = *reinterpret_cast<const int4*>(dist + pbase + i * pitch + 32 * a + kk4);
      strip[kk4 + 0][i] = v.x;
      strip[kk4 + 1][i] = v.y;
      strip[kk4 + 2][i] = v.z;
      strip[kk4 + 3][i] = v.w;
    } else {
      // strip[kk][j] = pivot[32a + kk][j], and the pivot parents likewise.
      const int kk = tid >> 5, j4 = (tid & 31) * 4;
      *reinterpret_cast<int4*>(&strip[kk][j4]) =
          *reinterpret_cast<const int4*>(dist + pbase + (32 * a + kk) * pitch + j4);
      if (Parents)
        *reinterpret_cast<int4*>(&stripp[kk][j4]) =
            *reinterpret_cast<const int4*>(parent + pbase + (32 * a + kk) * pitch + j4);
    }
    for (int kk = 0; kk < 32; ++kk) {
      if (inRow) {
        if (ty == kk) {
#pragma unroll
          for (int b = 0; b < 4; ++b) {
            line[tx + 32 * b] = c[a][b];
            if (Parents) linep[tx + 32 * b] = p[a][b];
          }
        }
      } else if (tx == kk) {
#pragma unroll
        for (int a2 = 0; a2 < 4; ++a2) line[ty + 32 * a2] = c[a2][a];
      }
      __syncthreads();
#pragma unroll
      for (int a2 = 0; a2 < 4; ++a2)
#pragma unroll
        for (int b = 0; b < 4; ++b) {
          // Row tile: pivot[i][k] + own[k][j]; column tile: own[i][k] + pivot[k][j].
          const int s = inRow ? strip[kk][ty + 32 * a2] + line[tx + 32 * b]
                              : line[ty + 32 * a2] + strip[kk][tx + 32 * b];
          if (Parents) {
            if (s < c[a2][b]) {
              c[a2][b] = s;
              p[a2][b] = inRow ? linep[tx + 32 * b] : stripp[kk][tx + 32 * b];
            }
          } else {
            c[a2][b] = min(s, c[a2][b]);
          }
        }
      __syncthreads();
    }
  }
#pragma unroll
  for (int a = 0; a < 4; ++a)
#pragma unroll
    for (int b = 0; b < 4; ++b) {
      dist[base + (ty + 32 * a) * pitch + tx + 32 * b] = c[a][b];
      if (Parents) parent[base + (ty + 32 * a) * pitch + tx + 32 * b] = p[a][b];
    }
}

// fast_rc maps register index x (0..7) of thread coordinate t to its row or
// column inside a tile: 4t+x for x < 4, 64+4t+(x-4) otherwise.
__device__ __forceinline__ int fast_rc(int t, int x) { return (x < 4 ? 0 : 64 - 4) + 4 * t + x; }

// fw_fast_rest updates every tile outside pivot row and column r (grid
// (tiles-1, tiles-1), 256 threads).
template <bool Parents>
__device__ __forceinline__ void fw_fast_rest(int* __restrict__ dist, int* __restrict__ parent, i64 pitch, i64 r) {
  constexpr int K = Parents ? FAST_CHUNK_PARENTS : FAST_CHUNK;
  // colT[kk][i] = dist[tile row i][pivot vertex kk] (transposed, padded by 4
  // so the transposing stores spread over banks and rows stay 16-byte aligned).
  __shared__ __align__(16) int colT[K][FAST_TILE + 4];
  __shared__ __align__(16) int row[K][FAST_TILE];
  __shared__ __align__(16) int rowp[Parents ? K : 1][FAST_TILE];
  const int tx = threadIdx.x & 15, ty = threadIdx.x >> 4, tid = threadIdx.x;
  const i64 ti = blockIdx.y + (blockIdx.y >= r), tj = blockIdx.x + (blockIdx.x >= r);
  const i64 base = ti * FAST_TILE * pitch + tj * FAST_TILE;
  const i64 colBase = ti * FAST_TILE * pitch + r * FAST_TILE;
  const i64 rowBase = r * FAST_TILE * pitch + tj * FAST_TILE;

  int c[8][8], p[Parents ? 8 : 1][8];
#pragma unroll
  for (int x = 0; x < 8; ++x) {
    const i64 at = base + fast_rc(ty, x) * pitch + 4 * tx;
    const int4 lo = *reinterpret_cast<const int4*>(dist + at);
    const int4 hi = *reinterpret_cast<const int4*>(dist + at + 64);
    c[x][0] = lo.x, c[x][1] = lo.y, c[x][2] = lo.z, c[x][3] = lo.w;
    c[x][4] = hi.x, c[x][5] = hi.y, c[x][6] = hi.z, c[x][7] = hi.w;
    if (Parents) {
#pragma unroll
      for (int y = 0; y < 8; ++y) p[x][y] = FAST_UNCHANGED;
    }
  }

  for (int k0 = 0; k0 < FAST_TILE; k0 += K) {
    __syncthreads();  // the previous chunk is no longer read
#pragma unroll
    for (int q = 0; q < K * FAST_TILE / 4 / 256; ++q) {
      const int idx = tid + 256 * q;
      {
        const int i = idx / (K / 4), kk4 = (idx % (K / 4)) * 4;
        const int4 v = *reinterpret_cast<const int4*>(dist + colBase + i * pitch + k0 + kk4);
        colT[kk4 + 0][i] = v.x;
        colT[kk4 + 1][i] = v.y;
        colT[kk4 + 2][i] = v.z;
        colT[kk4 + 3][i] = v.w;
      }
      {
        const int kk = idx >> 5, j4 = (idx & 31) * 4;
        *reinterpret_cast<int4*>(&row[kk][j4]) = *reinterpret_cast<const int4*>(dist + rowBase + (k0 + kk) * pitch + j4);
        if (Parents)
          *reinterpret_cast<int4*>(&rowp[kk][j4]) =
              *reinterpret_cast<const int4*>(parent + rowBase + (k0 + kk) * pitch + j4);
      }
    }
    __syncthreads();
#pragma unroll(Parents ? 1 : 4)
    for (int kk = 0; kk < K; ++kk) {
      int a[8], b[8];
      const int4 a0 = *reinterpret_cast<const int4*>(&colT[kk][4 * ty]);
      const int4 a1 = *reinterpret_cast<const int4*>(&colT[kk][64 + 4 * ty]);
      const int4 b0 = *reinterpret_cast<const int4*>(&row[kk][4 * tx]);
      const int4 b1 = *reinterpret_cast<const int4*>(&row[kk][64 + 4 * tx]);
      a[0] = a0.x, a[1] = a0.y, a[2] = a0.z, a[3] = a0.w, a[4] = a1.x, a[5] = a1.y, a[6] = a1.z, a[7] = a1.w;
      b[0] = b0.x, b[1] = b0.y, b[2] = b0.z, b[3] = b0.w, b[4] = b1.x, b[5] = b1.y, b[6] = b1.z, b[7] = b1.w;
      if (Parents) {
        int pb[8];
        const int4 p0 = *reinterpret_cast<const int4*>(&rowp[kk][4 * tx]);
        const int4 p1 = *reinterpret_cast<const int4*>(&rowp[kk][64 + 4 * tx]);
        pb[0] = p0.x, pb[1] = p0.y, pb[2] = p0.z, pb[3] = p0.w, pb[4] = p1.x, pb[5] = p1.y, pb[6] = p1.z, pb[7] = p1.w;
#pragma unroll
        for (int x = 0; x < 8; ++x)
#pragma unroll
          for (int y = 0; y < 8; ++y) {
            const int s = a[x] + b[y];
            if (s < c[x][y]) {
              c[x][y] = s;
              p[x][y] = pb[y];
            }
          }
      } else {
#pragma unroll
        for (int x = 0; x < 8; ++x)
#pragma unroll
          for (int y = 0; y < 8; ++y) c[x][y] = add_min(a[x], b[y], c[x][y]);
      }
    }
  }

#pragma unroll
  for (int x = 0; x < 8; ++x) {
    const i64 at = base + fast_rc(ty, x) * pitch + 4 * tx;
    *reinterpret_cast<int4*>(dist + at) = make_int4(c[x][0], c[x][1], c[x][2], c[x][3]);
    *reinterpret_cast<int4*>(dist + at + 64) = make_int4(c[x][4], c[x][5], c[x][6], c[x][7]);
    if (Parents) {
#pragma unroll
      for (int y = 0; y < 8; ++y)
        if (p[x][y] != FAST_UNCHANGED) parent[at + (y < 4 ? y : 64 + y - 4)] = p[x][y];
    }
  }
}
