#include "apsp_common.cuh"

#define UNSETTLED (-2)
// TENTATIVE(u) marks a vertex settled through u during the current sweep
// (values -3 and below); it is its own inverse.
#define TENTATIVE(u) (-(u)-3)

// apsp_search_parents derives a loop-free parent matrix from final distances
// when weights may be zero or negative. A tight arc u -> v has
// dist[s][u] + w == dist[s][v]; with zero-weight cycles, picking any tight
// arc per vertex can close a loop of parents (and so can the tiled
// variants' parent tracking, which sees pivot rows from later in the round).
// Instead, per source, a vertex settles only through a tight arc from an
// already settled vertex, starting from s: each parent settled before its
// child, so the parents form a tree. One block per source (grid-stride),
// sweeping until nothing settles. A sweep settles a vertex only through
// vertices settled in earlier sweeps, and through its first such tight
// in-arc, so the parents are the same whatever the thread timing (and
// equal between a whole matrix and its slabs); O(depth * (n + m)) per
// source, where
// depth is the number of arcs on the longest shortest path needed. The
// sources are row0 .. row0+rows-1, whose rows dist and parent point at.
extern "C" __global__ void apsp_search_parents(const int* __restrict__ dist, int* __restrict__ parent, long long n,
                                               long long pitch, const long long* __restrict__ in_offsets,
                                               const int* __restrict__ in_sources,
                                               const int* __restrict__ in_weights, long long row0,
                                               long long rows) {
  __shared__ int changed;
  for (i64 i = blockIdx.x; i < rows; i += gridDim.x) {
    const i64 s = row0 + i;
    const int* row = dist + i * pitch;
    volatile int* prow = parent + i * pitch;
    for (i64 v = threadIdx.x; v < n; v += blockDim.x) prow[v] = (v == s || row[v] >= INF32) ? -1 : UNSETTLED;
    for (;;) {
      __syncthreads();
      if (threadIdx.x == 0) changed = 0;
      __syncthreads();
      for (i64 v = threadIdx.x; v < n; v += blockDim.x) {
        if (prow[v] != UNSETTLED) continue;
        const int dv = row[v];
        for (i64 e = in_offsets[v], end = in_offsets[v + 1]; e < end; ++e) {
          const int u = in_sources[e];
          if ((u == s || prow[u] >= 0) && row[u] + in_weights[e] == dv) {
            prow[v] = TENTATIVE(u);
            changed = 1;
            break;
          }
        }
      }
      __syncthreads();
      // Settle this sweep's vertices only now, so that which of them a
      // vertex sees never depends on thread timing.
      for (i64 v = threadIdx.x; v < n; v += blockDim.x) {
        if (prow[v] <= TENTATIVE(0)) prow[v] = TENTATIVE(prow[v]);
      }
      __syncthreads();
      if (!changed) break;
    }
  }
}
