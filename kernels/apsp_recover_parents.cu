#include "apsp_common.cuh"

// apsp_recover_parents derives the parent matrix from final distances when
// every arc weight is positive: parent[s][v] is the first in-arc u -> v (in
// reverse-CSR order) with dist[s][u] + w == dist[s][v]. Positive weights make
// dist strictly increase along such arcs, so the parents form a tree (with
// zero weights they might not: see apsp_search_parents). One
// thread per (s, v), O(n * m) work; blockIdx.y strides over the sources
// row0 .. row0+rows-1, whose rows dist and parent point at.
extern "C" __global__ void apsp_recover_parents(const int* __restrict__ dist, int* __restrict__ parent, long long n,
                                                long long pitch, const long long* __restrict__ in_offsets,
                                                const int* __restrict__ in_sources,
                                                const int* __restrict__ in_weights, long long row0,
                                                long long rows) {
  const i64 v = blockIdx.x * (i64)blockDim.x + threadIdx.x;
  if (v >= n) return;
  const i64 begin = in_offsets[v], end = in_offsets[v + 1];
  for (i64 i = blockIdx.y; i < rows; i += gridDim.y) {
    const i64 s = row0 + i;
    const int* row = dist + i * pitch;
    const int dv = row[v];
    int best = -1;
    if (s != v && dv < INF32) {
      for (i64 e = begin; e < end; ++e) {
        const int u = in_sources[e];
        if (row[u] + in_weights[e] == dv) {
          best = u;
          break;
        }
      }
    }
    parent[i * pitch + v] = best;
  }
}
