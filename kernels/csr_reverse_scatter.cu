#include "sssp_common.cuh"

// csr_reverse_scatter writes the reverse arcs of a CSR graph (offsets,
// targets, weights; n vertices): every arc u -> v of weight w becomes the
// entry (u, w) of reverse row v, at the position cursor[v] hands out.
// cursor starts as a copy of the reverse row offsets (the scanned in-degrees
// of csr_in_degree) and ends as the next row's offsets. Entries land in a
// row in whatever order the atomics run: every reader of reverse rows takes
// the smallest qualifying source (tight_parent), so the order does not
// matter. One thread per vertex u, grid-stride.
extern "C" __global__ void csr_reverse_scatter(const long long* __restrict__ offsets,
                                               const int* __restrict__ targets, const int* __restrict__ weights,
                                               long long n, unsigned long long* __restrict__ cursor,
                                               int* __restrict__ rev_sources, int* __restrict__ rev_weights) {
  for (i64 u = blockIdx.x * (i64)blockDim.x + threadIdx.x; u < n; u += (i64)gridDim.x * blockDim.x) {
    const i64 end = offsets[u + 1];
    for (i64 e = offsets[u]; e < end; ++e) {
      const u64 at = atomicAdd(cursor + targets[e], 1ull);
      rev_sources[at] = (int)u;
      rev_weights[at] = weights[e];
    }
  }
}
