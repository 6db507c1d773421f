// Shared device code of the single-source shortest-path kernels (sssp_*.cu).
//
// Graphs are CSR: offsets (n + 1 long long), targets and weights (m int each);
// the reverse CSR has the same layout with arc sources as targets.
// Distances are int32 with INF32 (graph.Inf32 = 2^30 - 1) for "not reached";
// the host only runs a graph whose distances provably stay below INF32, so
// d + w never wraps. Several sources are solved at once as rows of a
// [sources][n] array; row g belongs to blockIdx.y == g.
//
// Every scalar kernel parameter is 64-bit (long long): the Go launcher copies
// eight bytes per argument.
#pragma once

#define INF32 0x3FFFFFFF

typedef long long i64;
typedef unsigned long long u64;

// load_cg reads a word that other blocks may have written during this
// launch: from L2, never from a possibly stale L1 line.
__device__ __forceinline__ int load_cg(const int* p) { return __ldcg(p); }

// load_volatile reads a word that other blocks change while this one waits
// (a relaxed load at device scope: from L2, never from L1).
__device__ __forceinline__ int load_volatile(const int* p) {
  int v;
  asm volatile("ld.relaxed.gpu.global.s32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}

// global_timer is the GPU's nanosecond clock, shared by all multiprocessors.
__device__ __forceinline__ i64 global_timer() {
  i64 t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// warp_append reserves one slot of a queue whose length is *counter for each
// calling thread, with one atomic per warp instead of one per thread: the
// lowest active lane adds the number of active lanes, and each lane takes the
// slot given by its rank among them.
__device__ __forceinline__ int warp_append(int* counter) {
  const unsigned mask = __activemask();
  const int lane = threadIdx.x & 31;
  const int leader = __ffs(mask) - 1;
  int base = 0;
  if (lane == leader) base = atomicAdd(counter, __popc(mask));
  base = __shfl_sync(mask, base, leader);
  return base + __popc(mask & ((1u << lane) - 1));
}

// warp_sum adds v over the warp's 32 lanes (all must call it).
__device__ __forceinline__ u64 warp_sum(u64 v) {
  for (int d = 16; d > 0; d >>= 1) v += __shfl_down_sync(0xFFFFFFFFu, v, d);
  return v;
}

// group_barrier makes the `blocks` blocks of one row group (the blocks that
// share blockIdx.y) wait for each other. arrived counts arrivals over the
// whole launch; *target is the running count of arrivals to wait for,
// advanced by `blocks` per barrier, so the counter never needs a reset.
// Writes before the barrier are visible to every block of the group after it:
// block barrier, fence and a release add on arrival, an acquire load on
// leaving (the sequence cooperative groups' grid sync uses). The launch is
// cooperative, so all blocks are resident and the wait ends. Past deadline
// (globaltimer nanoseconds; looked at every 256 barriers and while waiting
// long) the block sets *abort and the result, the same for every thread of
// the block, is true: the caller stops. The other blocks then pass their
// deadline waiting and stop too.
__device__ __forceinline__ bool group_barrier(unsigned int* arrived, unsigned int* target, unsigned int blocks,
                                              int* abort, i64 deadline) {
  __shared__ int stop;
  __syncthreads();
  *target += blocks;
  if (threadIdx.x == 0) {
    __threadfence();
    asm volatile("red.release.gpu.global.add.u32 [%0], 1;" ::"l"(arrived) : "memory");
    bool late = ((*target / blocks) & 255u) == 0 && global_timer() > deadline;
    unsigned int spins = 0;
    while (!late && (unsigned int)load_volatile((const int*)arrived) < *target) {
      late = (++spins & 1023u) == 0 && global_timer() > deadline;
    }
    unsigned int seen;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(seen) : "l"(arrived) : "memory");
    (void)seen;
    if (late) atomicExch(abort, 1);
    stop = late;
  }
  __syncthreads();
  return stop != 0;
}

// relax_out_arcs relaxes u's out-arcs with u's distance du: dist[v] drops
// to du + w through atomicMin, so concurrent relaxations of one vertex keep
// the smallest.
__device__ __forceinline__ void relax_out_arcs(const long long* __restrict__ offsets, const int* __restrict__ targets,
                                               const int* __restrict__ weights, i64 u, int du, int* dist) {
  const i64 end = offsets[u + 1];
  for (i64 e = offsets[u]; e < end; ++e) {
    const int v = targets[e];
    const int nd = du + weights[e];
    if (nd < dist[v]) atomicMin(dist + v, nd);
  }
}

// store_block_min writes the minimum of m over the block (at most 1024
// threads, all calling) to out[at]: a shuffle reduction within warps, then
// shared memory across them, thread 0 storing.
__device__ __forceinline__ void store_block_min(int m, int* out, i64 at) {
  __shared__ int warps[32];
  for (int d = 16; d > 0; d >>= 1) m = min(m, __shfl_down_sync(0xFFFFFFFFu, m, d));
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) warps[warp] = m;
  __syncthreads();
  if (warp == 0) {
    m = lane < (blockDim.x + 31) / 32 ? warps[lane] : INF32;
    for (int d = 16; d > 0; d >>= 1) m = min(m, __shfl_down_sync(0xFFFFFFFFu, m, d));
    if (lane == 0) out[at] = m;
  }
}
