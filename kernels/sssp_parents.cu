#include "sssp_common.cuh"

// sssp_parents derives shortest-path parents from converged distances, the
// pass Bodra's bellmanFordParent* makes: relaxations only keep distances
// (atomicMin cannot update a distance and its parent together). Vertex v of
// row g takes the smallest in-neighbour u (reverse CSR: roffsets, rsources,
// rweights) with dist[u] + w(u, v) == dist[v], so the result does not depend
// on thread timing; the source and unreached vertices get -1. Rows are
// blockIdx.y (grid-stride over rows too); vertices grid-stride over x.
extern "C" __global__ void sssp_parents(const long long* __restrict__ roffsets, const int* __restrict__ rsources,
                                        const int* __restrict__ rweights, long long n, const int* __restrict__ dist,
                                        int* __restrict__ parent, const int* __restrict__ sources, long long k) {
  for (i64 g = blockIdx.y; g < k; g += gridDim.y) {
    const int* d = dist + g * n;
    int* p = parent + g * n;
    const i64 source = sources[g];
    for (i64 v = blockIdx.x * (i64)blockDim.x + threadIdx.x; v < n; v += (i64)gridDim.x * blockDim.x) {
      const int dv = d[v];
      int best = -1;
      if (dv != INF32 && v != source) {
        const i64 end = roffsets[v + 1];
        for (i64 e = roffsets[v]; e < end; ++e) {
          const int u = rsources[e];
          const int du = d[u];
          if (du != INF32 && du + rweights[e] == dv && (best < 0 || u < best)) best = u;
        }
      }
      p[v] = best;
    }
  }
}
