#include "apsp_common.cuh"

// apsp_load_arcs writes the m arcs into the initialised matrix. Parallel arcs
// keep the smallest weight (atomicMin); a negative self-loop leaves a negative
// diagonal, which the Floyd-Warshall kernels report as a negative cycle. The
// parent of an arc u -> v (u != v) is u whichever parallel arc wins.
extern "C" __global__ void apsp_load_arcs(int* __restrict__ dist, int* __restrict__ parent,
                                          const int* __restrict__ src, const int* __restrict__ dst,
                                          const int* __restrict__ weight, long long m, long long pitch) {
  for (i64 e = blockIdx.x * (i64)blockDim.x + threadIdx.x; e < m; e += (i64)gridDim.x * blockDim.x) {
    i64 u = src[e], v = dst[e];
    atomicMin(&dist[u * pitch + v], weight[e]);
    if (parent && u != v) parent[u * pitch + v] = (int)u;
  }
}
