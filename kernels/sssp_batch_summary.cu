#include "sssp_common.cuh"
#include "sssp_batch_state.cuh"

// BT_SUMMARY_WARPS is the warps per block of sssp_batch_summary.
#define BT_SUMMARY_WARPS 8

// sssp_batch_summary reduces every row of a launch of batched searches or
// PHAST sweeps to what the per-source summary reads of it
// (results.RowSummary), so that a run that writes only the summary copies
// 24 bytes a row to the host instead of its cells. Group blockIdx.y's
// distances are at dist + blockIdx.y * stride, [count][BT_LANES] int32, in
// any vertex order (a count, a sum and a maximum do not depend on it: the
// batched searches' vertex order, a sweep's hierarchy order); lane j is
// row blockIdx.y * BT_LANES + j of the launch's k rows, whose source's
// own cell is at index sources[row] (-1: none there). A cell is kept when
// it has a path (below INF32) no longer than cutoff. out is k rows of
// three u64, zeroed by the caller: the kept cells other than the source's,
// the sum of their distances (exact: fewer than 2^33 cells, each below
// 2^30), and a word whose low half is the largest such distance as an
// order-preserving key (bits flipped at 2^31; meaningless without such
// cells) and whose high half is 1 when the source's own cell is kept. A
// warp reads one vertex's 32 lanes as one 128-byte line, warps grid-stride
// over the vertices, and the block's warps combine in shared memory before
// one set of atomics a row.
extern "C" __global__ void sssp_batch_summary(const int* __restrict__ dist, long long stride, long long count,
                                              long long cutoff, const int* __restrict__ sources, long long k,
                                              unsigned long long* __restrict__ out) {
  __shared__ u64 shared_others[BT_SUMMARY_WARPS][BT_LANES];
  __shared__ u64 shared_sum[BT_SUMMARY_WARPS][BT_LANES];
  __shared__ int shared_ecc[BT_SUMMARY_WARPS][BT_LANES];
  __shared__ int shared_self[BT_SUMMARY_WARPS][BT_LANES];
  const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  const i64 row = (i64)blockIdx.y * BT_LANES + lane;
  const int* d = dist + (i64)blockIdx.y * stride;
  const i64 source = row < k ? sources[row] : -1;
  const int limit = (int)min(cutoff, (i64)INF32 - 1);
  u64 others = 0, sum = 0;
  int ecc = 0, self = 0;
  const i64 warps = (i64)gridDim.x * BT_SUMMARY_WARPS;
#pragma unroll 4
  for (i64 v = (i64)blockIdx.x * BT_SUMMARY_WARPS + w; v < count; v += warps) {
    const int x = __ldcs(d + v * BT_LANES + lane);
    if (x <= limit) {
      if (v == source) {
        self = 1;
      } else {
        ecc = others == 0 ? x : max(ecc, x);
        others++;
        sum += (u64)(i64)x;
      }
    }
  }
  shared_others[w][lane] = others;
  shared_sum[w][lane] = sum;
  shared_ecc[w][lane] = ecc;
  shared_self[w][lane] = self;
  __syncthreads();
  if (w != 0 || row >= k) return;
  for (int i = 1; i < BT_SUMMARY_WARPS; ++i) {
    const u64 o = shared_others[i][lane];
    if (o != 0) {
      ecc = others == 0 ? shared_ecc[i][lane] : max(ecc, shared_ecc[i][lane]);
      others += o;
      sum += shared_sum[i][lane];
    }
    self |= shared_self[i][lane];
  }
  u64* at = out + row * 3;
  if (others != 0) {
    atomicAdd(at, others);
    atomicAdd(at + 1, sum);
    atomicMax((unsigned int*)(at + 2), (unsigned int)ecc ^ 0x80000000u);
  }
  if (self) atomicOr((unsigned int*)(at + 2) + 1, 1u);
}
