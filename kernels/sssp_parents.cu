#include "sssp_common.cuh"

// sssp_parents derives shortest-path parents from converged distances, the
// pass Bodra's bellmanFordParent* makes: relaxations only keep distances
// (atomicMin cannot update a distance and its parent together). Vertex v of
// row g takes the smallest in-neighbour u with dist[u] + w(u, v) ==
// dist[v], so the result does not depend on thread timing; the source and
// unreached vertices get -1. It reads the forward arcs (offsets, targets,
// weights), so no reverse graph is built: each thread takes a vertex u and
// offers u to every v its tight arcs reach, by an unsigned atomicMin into
// parent, which the caller filled with -1 (0xFFFFFFFF, above every vertex
// id). Rows are blockIdx.y (grid-stride over rows too); vertices
// grid-stride over x.
extern "C" __global__ void sssp_parents(const long long* __restrict__ offsets, const int* __restrict__ targets,
                                        const int* __restrict__ weights, long long n, const int* __restrict__ dist,
                                        int* __restrict__ parent, const int* __restrict__ sources, long long k) {
  for (i64 g = blockIdx.y; g < k; g += gridDim.y) {
    const int* d = dist + g * n;
    unsigned int* p = (unsigned int*)(parent + g * n);
    const i64 source = sources[g];
    for (i64 u = blockIdx.x * (i64)blockDim.x + threadIdx.x; u < n; u += (i64)gridDim.x * blockDim.x) {
      const int du = d[u];
      if (du == INF32) continue;
      const i64 end = offsets[u + 1];
      for (i64 e = offsets[u]; e < end; ++e) {
        const int v = targets[e];
        const int dv = d[v];
        if (v != source && dv != INF32 && du + weights[e] == dv) atomicMin(p + v, (unsigned int)u);
      }
    }
  }
}
