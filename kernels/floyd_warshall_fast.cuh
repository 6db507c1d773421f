// Device code of the fast Floyd-Warshall: the three phases of the blocked
// algorithm over 128 x 128 tiles, built so that phase 3, which does all but
// a 2/tiles fraction of the n^3 relaxations, runs at the add-min rate of the
// chip:
//
//   - phase 3: 256 threads per tile, each owning an 8 x 8 block of cells in
//     registers (rows 4*ty+{0..3} and 64+4*ty+{0..3}, likewise columns, so
//     that a warp's 16-byte shared loads are conflict-free or broadcast).
//     The pivot column and pivot row tiles pass through shared memory in
//     double-buffered chunks of FAST_CHUNK pivot vertices; per pivot vertex
//     a thread does four 16-byte shared loads and 64 min(a + b, c) that
//     ptxas fuses into VIADDMNMX.
//   - phases 1 and 2: 1024 threads per tile, 4 x 4 cells each (rows ty+32a,
//     columns tx+32b). They walk the pivot vertices one by one, the owners
//     of row and column k publishing them through shared memory.
//
// The matrix pitch is a multiple of FAST_TILE (the host pads n), rows are
// 16-byte aligned, and padding vertices are isolated.
#pragma once
#include "apsp_common.cuh"

#define FAST_TILE 128
#define FAST_CHUNK 16
// FAST_UNCHANGED marks a phase-3 cell whose parent was not replaced (no
// vertex id or -1 takes this value), so only improved parents are stored.
#define FAST_UNCHANGED (-2)

// Packed phase 3 (parents at the cost of distances): a cell holds
// (distance << 8) | k, k the position in the pivot tile of the pivot that
// gave the distance, or PACK_KEEP if none did this round. The pivot row is
// staged as (d << 8) | k and the pivot column as d << 8, so
// min(a + b, c) picks the shortest distance and, among equal ones, the
// smallest k: one VIADDMNMX per relaxation, as without parents. Afterwards a
// cell with k != PACK_KEEP takes parent[pivot k][j]. Taking a pivot on a tie
// keeps parents a tree when weights are positive, which the host requires,
// as it requires distances below PACK_INF (2^22 - 1); larger values mean
// "unreachable", and sums stay below 2^31.
#define PACK_SHIFT 8
#define PACK_KEEP 255
#define PACK_INF ((1 << 22) - 1)

__device__ __forceinline__ int pack_dist(int d) { return min(d, PACK_INF) << PACK_SHIFT; }

// fast_load_quad loads the 4 x 4 cells (rows ty+32a, columns tx+32b) of a
// phase 1 or 2 thread from the tile at base, and their parents when
// Parents.
template <bool Parents>
__device__ __forceinline__ void fast_load_quad(const int* __restrict__ dist, const int* __restrict__ parent, i64 base,
                                               i64 pitch, int tx, int ty, int (&c)[4][4], int (&p)[4][4]) {
#pragma unroll
  for (int a = 0; a < 4; ++a)
#pragma unroll
    for (int b = 0; b < 4; ++b) {
      c[a][b] = dist[base + (ty + 32 * a) * pitch + tx + 32 * b];
      if (Parents) p[a][b] = parent[base + (ty + 32 * a) * pitch + tx + 32 * b];
    }
}

// fast_store_quad stores them back.
template <bool Parents>
__device__ __forceinline__ void fast_store_quad(int* __restrict__ dist, int* __restrict__ parent, i64 base, i64 pitch,
                                                int tx, int ty, const int (&c)[4][4], const int (&p)[4][4]) {
#pragma unroll
  for (int a = 0; a < 4; ++a)
#pragma unroll
    for (int b = 0; b < 4; ++b) {
      dist[base + (ty + 32 * a) * pitch + tx + 32 * b] = c[a][b];
      if (Parents) parent[base + (ty + 32 * a) * pitch + tx + 32 * b] = p[a][b];
    }
}

// fast_close_tile closes the diagonal tile at dist (row pitch `pitch`)
// over its 128 vertices, vertex0 being the first one's id: sums are
// clamped at -INF32, and pivot vertex k is reported when its diagonal
// value is negative at the start of step k (see fw_blocked_pivot). dist
// and parent point at the tile's first cell.
template <bool Parents>
__device__ __forceinline__ void fast_close_tile(int* __restrict__ dist, int* __restrict__ parent, i64 pitch,
                                                i64 vertex0, int* __restrict__ negative) {
  __shared__ int rowk[FAST_TILE], colk[FAST_TILE], rowkp[FAST_TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const i64 base = 0;
  int c[4][4], p[4][4];
  fast_load_quad<Parents>(dist, parent, base, pitch, tx, ty, c, p);
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
        if (ty == kk && c[a][a] < 0) report_negative(negative, vertex0 + 32 * a + kk);
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
  fast_store_quad<Parents>(dist, parent, base, pitch, tx, ty, c, p);
}

// fw_fast_pivot closes tile (r, r) of the matrix (see fast_close_tile).
template <bool Parents>
__device__ __forceinline__ void fw_fast_pivot(int* __restrict__ dist, int* __restrict__ parent, i64 pitch, i64 r,
                                              int* __restrict__ negative) {
  const i64 base = r * FAST_TILE * pitch + r * FAST_TILE;
  fast_close_tile<Parents>(dist + base, Parents ? parent + base : parent, pitch, r * FAST_TILE, negative);
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
  fast_load_quad<Parents>(dist, parent, base, pitch, tx, ty, c, p);
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
  fast_store_quad<Parents>(dist, parent, base, pitch, tx, ty, c, p);
}

// fast_rc maps register index x (0..7) of thread coordinate t to its row or
// column inside a tile: 4t+x for x < 4, 64+4t+(x-4) otherwise.
__device__ __forceinline__ int fast_rc(int t, int x) { return (x < 4 ? 0 : 64 - 4) + 4 * t + x; }

// fast_load_cells loads the thread's 8 x 8 cells of the tile at base.
__device__ __forceinline__ void fast_load_cells(const int* __restrict__ dist, i64 base, i64 pitch, int tx, int ty,
                                                int (&c)[8][8]) {
#pragma unroll
  for (int x = 0; x < 8; ++x) {
    const i64 at = base + fast_rc(ty, x) * pitch + 4 * tx;
    const int4 lo = *reinterpret_cast<const int4*>(dist + at);
    const int4 hi = *reinterpret_cast<const int4*>(dist + at + 64);
    c[x][0] = lo.x, c[x][1] = lo.y, c[x][2] = lo.z, c[x][3] = lo.w;
    c[x][4] = hi.x, c[x][5] = hi.y, c[x][6] = hi.z, c[x][7] = hi.w;
  }
}

// fast_store_cells stores them back.
__device__ __forceinline__ void fast_store_cells(int* __restrict__ dist, i64 base, i64 pitch, int tx, int ty,
                                                 const int (&c)[8][8]) {
#pragma unroll
  for (int x = 0; x < 8; ++x) {
    const i64 at = base + fast_rc(ty, x) * pitch + 4 * tx;
    *reinterpret_cast<int4*>(dist + at) = make_int4(c[x][0], c[x][1], c[x][2], c[x][3]);
    *reinterpret_cast<int4*>(dist + at + 64) = make_int4(c[x][4], c[x][5], c[x][6], c[x][7]);
  }
}

// fast_operands reads pivot step kk's column values for the thread's rows
// (a) and row values for its columns (b): four 16-byte shared loads, the
// column ones broadcast within the warp.
__device__ __forceinline__ void fast_operands(const int (*colT)[FAST_TILE + 4], const int (*row)[FAST_TILE], int kk,
                                              int tx, int ty, int (&a)[8], int (&b)[8]) {
  const int4 a0 = *reinterpret_cast<const int4*>(&colT[kk][4 * ty]);
  const int4 a1 = *reinterpret_cast<const int4*>(&colT[kk][64 + 4 * ty]);
  const int4 b0 = *reinterpret_cast<const int4*>(&row[kk][4 * tx]);
  const int4 b1 = *reinterpret_cast<const int4*>(&row[kk][64 + 4 * tx]);
  a[0] = a0.x, a[1] = a0.y, a[2] = a0.z, a[3] = a0.w, a[4] = a1.x, a[5] = a1.y, a[6] = a1.z, a[7] = a1.w;
  b[0] = b0.x, b[1] = b0.y, b[2] = b0.z, b[3] = b0.w, b[4] = b1.x, b[5] = b1.y, b[6] = b1.z, b[7] = b1.w;
}

// A chunk is FAST_CHUNK pivot vertices: the pivot column strip of the tile's
// rows (128 x FAST_CHUNK, stored transposed in colT) and the pivot row
// strip of its columns (FAST_CHUNK x 128). Each of the 256 threads moves two
// 16-byte pieces of each.
#define FAST_CHUNK_PIECES (FAST_TILE * FAST_CHUNK / 4 / 256)

// fast_fetch_chunk loads chunk k0 from global memory into registers.
__device__ __forceinline__ void fast_fetch_chunk(const int* __restrict__ m, i64 colBase, i64 rowBase, i64 pitch,
                                                 int k0, int tid, int4 (&cv)[FAST_CHUNK_PIECES],
                                                 int4 (&rv)[FAST_CHUNK_PIECES]) {
#pragma unroll
  for (int q = 0; q < FAST_CHUNK_PIECES; ++q) {
    const int idx = tid + 256 * q;
    const int i = idx / (FAST_CHUNK / 4), kk4 = (idx % (FAST_CHUNK / 4)) * 4;
    cv[q] = *reinterpret_cast<const int4*>(m + colBase + i * pitch + k0 + kk4);
    const int kk = idx / (FAST_TILE / 4), j4 = (idx % (FAST_TILE / 4)) * 4;
    rv[q] = *reinterpret_cast<const int4*>(m + rowBase + (k0 + kk) * pitch + j4);
  }
}

// fast_fetch_strips is fast_fetch_chunk from strips of their own: the
// column strip at col (row pitch colPitch) and the row strip at row
// (row pitch rowPitch).
__device__ __forceinline__ void fast_fetch_strips(const int* __restrict__ col, i64 colPitch,
                                                 const int* __restrict__ row, i64 rowPitch, int k0, int tid,
                                                 int4 (&cv)[FAST_CHUNK_PIECES], int4 (&rv)[FAST_CHUNK_PIECES]) {
#pragma unroll
  for (int q = 0; q < FAST_CHUNK_PIECES; ++q) {
    const int idx = tid + 256 * q;
    const int i = idx / (FAST_CHUNK / 4), kk4 = (idx % (FAST_CHUNK / 4)) * 4;
    cv[q] = *reinterpret_cast<const int4*>(col + i * colPitch + k0 + kk4);
    const int kk = idx / (FAST_TILE / 4), j4 = (idx % (FAST_TILE / 4)) * 4;
    rv[q] = *reinterpret_cast<const int4*>(row + (k0 + kk) * rowPitch + j4);
  }
}

// fast_stage_chunk stores a fetched chunk (pivots k0 ...) into shared
// memory, packed when Packed (see PACK_SHIFT).
template <bool Packed>
__device__ __forceinline__ void fast_stage_chunk(int (*colT)[FAST_TILE + 4], int (*row)[FAST_TILE], int tid, int k0,
                                                 int4 (&cv)[FAST_CHUNK_PIECES], int4 (&rv)[FAST_CHUNK_PIECES]) {
#pragma unroll
  for (int q = 0; q < FAST_CHUNK_PIECES; ++q) {
    const int idx = tid + 256 * q;
    const int i = idx / (FAST_CHUNK / 4), kk4 = (idx % (FAST_CHUNK / 4)) * 4;
    const int kk = idx / (FAST_TILE / 4), j4 = (idx % (FAST_TILE / 4)) * 4;
    if (Packed) {
      cv[q] = make_int4(pack_dist(cv[q].x), pack_dist(cv[q].y), pack_dist(cv[q].z), pack_dist(cv[q].w));
      const int k = k0 + kk;
      rv[q] = make_int4(pack_dist(rv[q].x) | k, pack_dist(rv[q].y) | k, pack_dist(rv[q].z) | k, pack_dist(rv[q].w) | k);
    }
    colT[kk4 + 0][i] = cv[q].x;
    colT[kk4 + 1][i] = cv[q].y;
    colT[kk4 + 2][i] = cv[q].z;
    colT[kk4 + 3][i] = cv[q].w;
    *reinterpret_cast<int4*>(&row[kk][j4]) = rv[q];
  }
}

// fast_chunks relaxes the thread's cells c through the tile's 128 pivots,
// chunk by chunk: fetch(k0) loads chunk k0 into cv and rv, and chunk 0 is
// already there. Chunks are double-buffered in colT and row: the next
// chunk's global loads are in flight while the current one is computed,
// and one barrier per chunk separates the buffers' uses. Packed stages
// the chunks packed (see PACK_SHIFT).
template <bool Packed, class Fetch>
__device__ __forceinline__ void fast_chunks(int (*colT)[FAST_CHUNK][FAST_TILE + 4], int (*row)[FAST_CHUNK][FAST_TILE],
                                            int tid, int tx, int ty, int4 (&cv)[FAST_CHUNK_PIECES],
                                            int4 (&rv)[FAST_CHUNK_PIECES], int (&c)[8][8], Fetch fetch) {
  fast_stage_chunk<Packed>(colT[0], row[0], tid, 0, cv, rv);
  __syncthreads();
#pragma unroll 1
  for (int chunk = 0; chunk < FAST_TILE / FAST_CHUNK; ++chunk) {
    const int cur = chunk & 1;
    const bool more = chunk + 1 < FAST_TILE / FAST_CHUNK;
    if (more) fetch((chunk + 1) * FAST_CHUNK);
    // Not unrolled: unrolling spills at the 128-register cap (measured
    // slower), and the loop's own instructions leave the integer pipe alone.
#pragma unroll 1
    for (int kk = 0; kk < FAST_CHUNK; ++kk) {
      int a[8], b[8];
      fast_operands(colT[cur], row[cur], kk, tx, ty, a, b);
#pragma unroll
      for (int x = 0; x < 8; ++x)
#pragma unroll
        for (int y = 0; y < 8; ++y) c[x][y] = add_min(a[x], b[y], c[x][y]);
    }
    // The other buffer was last read before the previous barrier.
    if (more) fast_stage_chunk<Packed>(colT[cur ^ 1], row[cur ^ 1], tid, (chunk + 1) * FAST_CHUNK, cv, rv);
    __syncthreads();
  }
}

// fast_min_plus relaxes the 128 x 128 tile at dist (row pitch pitch)
// through 128 pivots: the tile's column strip at col (its 128 rows by the
// pivots, row pitch colPitch) and the pivots' row strip at row (the pivots
// by its 128 columns, row pitch rowPitch), i.e. dist[i][j] = min(dist[i][j],
// col[i][k] + row[k][j]). Distances only, or with packed parents (Packed,
// see PACK_SHIFT; parent and rowParent then point at the tile's and the
// row strip's parents, with the pitches of dist and row), chunk by chunk
// (see fast_chunks). The tile is stored once, after every strip value is
// read, so a strip may be the tile itself.
template <bool Packed>
__device__ __forceinline__ void fast_min_plus(int* __restrict__ dist, int* __restrict__ parent, i64 pitch,
                                              const int* __restrict__ col, i64 colPitch, const int* __restrict__ row_,
                                              i64 rowPitch, const int* __restrict__ rowParent) {
  // colT[kk][i] = col[tile row i][pivot kk], padded by 4 so that the
  // transposing stores spread over banks and rows stay 16-byte aligned.
  __shared__ __align__(16) int colT[2][FAST_CHUNK][FAST_TILE + 4];
  __shared__ __align__(16) int row[2][FAST_CHUNK][FAST_TILE];
  const int tx = threadIdx.x & 15, ty = threadIdx.x >> 4, tid = threadIdx.x;
  const i64 base = 0;

  int4 cv[FAST_CHUNK_PIECES], rv[FAST_CHUNK_PIECES];
  const auto fetch = [&](int k0) { fast_fetch_strips(col, colPitch, row_, rowPitch, k0, tid, cv, rv); };
  fetch(0);
  int c[8][8];
  fast_load_cells(dist, base, pitch, tx, ty, c);
  if (Packed) {
#pragma unroll
    for (int x = 0; x < 8; ++x)
#pragma unroll
      for (int y = 0; y < 8; ++y) c[x][y] = pack_dist(c[x][y]) | PACK_KEEP;
  }
  fast_chunks<Packed>(colT, row, tid, tx, ty, cv, rv, c, fetch);
  if (Packed) {
    // Unpack; a cell improved through pivot k takes rowParent[k][j].
#pragma unroll
    for (int x = 0; x < 8; ++x) {
      const i64 at = base + fast_rc(ty, x) * pitch + 4 * tx;
#pragma unroll
      for (int y = 0; y < 8; ++y) {
        const int j = fast_rc(tx, y), k = c[x][y] & PACK_KEEP;
        if (k != PACK_KEEP) parent[at + (j - 4 * tx)] = rowParent[k * rowPitch + j];
        const int d = c[x][y] >> PACK_SHIFT;
        c[x][y] = d >= PACK_INF ? INF32 : d;
      }
    }
  }
  fast_store_cells(dist, base, pitch, tx, ty, c);
}

// fast_rest_distances, below, is fast_min_plus inside one matrix (one
// base pointer and offsets): kept as written because routing the
// distances-only phase 3 through fast_min_plus measured 2.5% slower on an
// H100 (0.3249 s -> 0.3331 s at n = 16,384), while packed parents ran 2.2%
// faster through it (0.4049 s -> 0.3957 s), so they use it.
//
// fast_rest_distances updates the distances of tile (ti, tj) through the
// pivot vertices of round r (see fast_chunks).
__device__ __forceinline__ void fast_rest_distances(int* __restrict__ dist, i64 pitch, i64 r, i64 ti, i64 tj) {
  // colT[kk][i] = dist[tile row i][pivot vertex kk], padded by 4 so that
  // the transposing stores spread over banks and rows stay 16-byte aligned.
  __shared__ __align__(16) int colT[2][FAST_CHUNK][FAST_TILE + 4];
  __shared__ __align__(16) int row[2][FAST_CHUNK][FAST_TILE];
  const int tx = threadIdx.x & 15, ty = threadIdx.x >> 4, tid = threadIdx.x;
  const i64 base = ti * FAST_TILE * pitch + tj * FAST_TILE;
  const i64 colBase = ti * FAST_TILE * pitch + r * FAST_TILE;
  const i64 rowBase = r * FAST_TILE * pitch + tj * FAST_TILE;

  int4 cv[FAST_CHUNK_PIECES], rv[FAST_CHUNK_PIECES];
  const auto fetch = [&](int k0) { fast_fetch_chunk(dist, colBase, rowBase, pitch, k0, tid, cv, rv); };
  fetch(0);
  int c[8][8];
  fast_load_cells(dist, base, pitch, tx, ty, c);
  fast_chunks<false>(colT, row, tid, tx, ty, cv, rv, c, fetch);
  fast_store_cells(dist, base, pitch, tx, ty, c);
}

// fast_rest_packed is phase 3 with packed parents of tile (ti, tj) in
// round r: fast_min_plus on strips of the matrix itself.
__device__ __forceinline__ void fast_rest_packed(int* __restrict__ dist, int* __restrict__ parent, i64 pitch, i64 r,
                                                 i64 ti, i64 tj) {
  const i64 base = ti * FAST_TILE * pitch + tj * FAST_TILE;
  const i64 colBase = ti * FAST_TILE * pitch + r * FAST_TILE;
  const i64 rowBase = r * FAST_TILE * pitch + tj * FAST_TILE;
  fast_min_plus<true>(dist + base, parent + base, pitch, dist + colBase, pitch, dist + rowBase, pitch, parent + rowBase);
}

// fast_rest_parents is fast_rest_distances tracking parents: a cell that
// improves through pivot k takes parent[k][j]. The extra select per cell
// makes this ALU-bound, so it keeps one buffer (the parent strip too would
// not fit twice in 48 KB) and only writes back parents that changed.
__device__ __forceinline__ void fast_rest_parents(int* __restrict__ dist, int* __restrict__ parent, i64 pitch, i64 r,
                                                  i64 ti, i64 tj) {
  __shared__ __align__(16) int colT[FAST_CHUNK][FAST_TILE + 4];
  __shared__ __align__(16) int row[FAST_CHUNK][FAST_TILE];
  __shared__ __align__(16) int rowp[FAST_CHUNK][FAST_TILE];
  const int tx = threadIdx.x & 15, ty = threadIdx.x >> 4, tid = threadIdx.x;
  const i64 base = ti * FAST_TILE * pitch + tj * FAST_TILE;
  const i64 colBase = ti * FAST_TILE * pitch + r * FAST_TILE;
  const i64 rowBase = r * FAST_TILE * pitch + tj * FAST_TILE;

  int c[8][8], p[8][8];
  fast_load_cells(dist, base, pitch, tx, ty, c);
#pragma unroll
  for (int x = 0; x < 8; ++x)
#pragma unroll
    for (int y = 0; y < 8; ++y) p[x][y] = FAST_UNCHANGED;

  for (int k0 = 0; k0 < FAST_TILE; k0 += FAST_CHUNK) {
    __syncthreads();  // the previous chunk is no longer read
    {
      int4 cv[FAST_CHUNK_PIECES], rv[FAST_CHUNK_PIECES];
      fast_fetch_chunk(dist, colBase, rowBase, pitch, k0, tid, cv, rv);
#pragma unroll
      for (int q = 0; q < FAST_CHUNK_PIECES; ++q) {
        const int idx = tid + 256 * q, kk = idx / (FAST_TILE / 4), j4 = (idx % (FAST_TILE / 4)) * 4;
        *reinterpret_cast<int4*>(&rowp[kk][j4]) =
            *reinterpret_cast<const int4*>(parent + rowBase + (k0 + kk) * pitch + j4);
      }
      fast_stage_chunk<false>(colT, row, tid, k0, cv, rv);
    }
    __syncthreads();
#pragma unroll 1
    for (int kk = 0; kk < FAST_CHUNK; ++kk) {
      int a[8], b[8], pb[8];
      fast_operands(colT, row, kk, tx, ty, a, b);
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
    }
  }
  fast_store_cells(dist, base, pitch, tx, ty, c);
#pragma unroll
  for (int x = 0; x < 8; ++x) {
    const i64 at = base + fast_rc(ty, x) * pitch + 4 * tx;
#pragma unroll
    for (int y = 0; y < 8; ++y)
      if (p[x][y] != FAST_UNCHANGED) parent[at + (y < 4 ? y : 64 + y - 4)] = p[x][y];
  }
}

// The phase-3 modes.
#define FAST_DISTANCES 0
#define FAST_TRACKED 1
#define FAST_PACKED 2

template <int Mode>
__device__ __forceinline__ void fw_fast_rest_tile(int* __restrict__ dist, int* __restrict__ parent, i64 pitch, i64 r,
                                                  i64 ti, i64 tj) {
  if (Mode == FAST_TRACKED)
    fast_rest_parents(dist, parent, pitch, r, ti, tj);
  else if (Mode == FAST_PACKED)
    fast_rest_packed(dist, parent, pitch, r, ti, tj);
  else
    fast_rest_distances(dist, pitch, r, ti, tj);
}

// skip2 maps 0, 1, 2, ... onto the tile indices other than lo and hi
// (lo < hi; hi may be -1 for "only lo").
__device__ __forceinline__ i64 skip2(i64 t, i64 lo, i64 hi) {
  t += t >= lo;
  if (hi >= 0) t += t >= hi;
  return t;
}

// fw_fast_rest is phase 3 of round r over a (tiles-1-s) x (tiles-1-s) grid
// (s = 1 when skip >= 0), for every tile outside row and column r and,
// when skip >= 0, outside row and column skip = r + 1 too: those are then
// updated ahead by fw_fast_ahead on another stream, so that the next
// round's phases 1 and 2 overlap this launch.
template <int Mode>
__device__ __forceinline__ void fw_fast_rest(int* __restrict__ dist, int* __restrict__ parent, i64 pitch, i64 r,
                                             i64 skip) {
  fw_fast_rest_tile<Mode>(dist, parent, pitch, r, skip2(blockIdx.y, r, skip), skip2(blockIdx.x, r, skip));
}

// fw_fast_ahead is phase 3 of round r for the tiles of row and column
// ahead = r + 1 (outside row and column r): a 1-D grid of 2 * tiles - 3
// blocks, the row's tiles first.
template <int Mode>
__device__ __forceinline__ void fw_fast_ahead(int* __restrict__ dist, int* __restrict__ parent, i64 pitch, i64 r,
                                              i64 ahead, i64 tiles) {
  const i64 t = blockIdx.x;
  const bool inRow = t < tiles - 1;
  const i64 ti = inRow ? ahead : skip2(t - (tiles - 1), r, ahead);
  const i64 tj = inRow ? skip2(t, r, -1) : ahead;
  fw_fast_rest_tile<Mode>(dist, parent, pitch, r, ti, tj);
}
