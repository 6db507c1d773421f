#include "sssp_common.cuh"

// csr_in_degree counts the arcs entering each vertex of a CSR graph: for
// every arc (grid-stride over the m targets) counts[target + 1] += 1, so
// that an exclusive scan of counts (n + 1 values, zeroed before) gives the
// reverse graph's row offsets. The first step of building the reverse arcs
// on the device (csr_reverse_scatter is the second).
extern "C" __global__ void csr_in_degree(const int* __restrict__ targets, long long m,
                                         unsigned long long* __restrict__ counts) {
  for (i64 e = blockIdx.x * (i64)blockDim.x + threadIdx.x; e < m; e += (i64)gridDim.x * blockDim.x) {
    atomicAdd(counts + targets[e] + 1, 1ull);
  }
}
