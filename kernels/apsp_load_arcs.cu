#include "apsp_common.cuh"

// apsp_load_arcs writes the m arcs into the initialised matrix. Parallel arcs
// keep the smallest weight (atomicMin); a negative self-loop leaves a negative
// diagonal, which the Floyd-Warshall kernels report as a negative cycle. The
// parent of an arc u -> v (u != v) is u whichever parallel arc wins. Only
// arcs leaving rows row0 .. row0+rows-1 are written; dist and parent point
// at row row0 (a slab of the matrix).
extern "C" __global__ void apsp_load_arcs(int* __restrict__ dist, int* __restrict__ parent,
                                          const int* __restrict__ src, const int* __restrict__ dst,
                                          const int* __restrict__ weight, long long m, long long pitch,
                               long long row0, long long rows) {
  for (i64 e = blockIdx.x * (i64)blockDim.x + threadIdx.x; e < m; e += (i64)gridDim.x * blockDim.x) {
    const i64 u = src[e], v = dst[e], i = u - row0;
    if (i < 0 || i >= rows) continue;
    atomicMin(&dist[i * pitch + v], weight[e]);
    if (parent && u != v) parent[i * pitch + v] = (int)u;
  }
}
