#include "sssp_common.cuh"

// sssp_bf_relax_naive is one Bellman-Ford round, one thread per vertex
// (Bodra's bellmanFordRelaxNaive): thread u relaxes u's out-arcs with u's
// distance from the previous round, prev, into dist with atomicMin, so that
// concurrent relaxations of one vertex keep the smallest. Reading prev
// rather than dist makes the round a Jacobi step: after round r, dist holds
// the shortest walks of at most r arcs.
extern "C" __global__ void sssp_bf_relax_naive(const long long* __restrict__ offsets, const int* __restrict__ targets,
                                               const int* __restrict__ weights, long long n,
                                               const int* __restrict__ prev, int* dist) {
  const i64 u = blockIdx.x * (i64)blockDim.x + threadIdx.x;
  if (u >= n) return;
  const int du = prev[u];
  if (du == INF32) return;
  relax_out_arcs(offsets, targets, weights, u, du, dist);
}
