#include "sssp_common.cuh"
#include "sssp_batch_state.cuh"

// sssp_batch_metric is sssp_batch for a run that reports a metric beside
// the distance. Each lane holds one 64-bit key instead of a distance, the
// distance in the high 32 bits and the metric summed along the same path
// in the low 32 (graph.Key), so that one unsigned atomicMin keeps the
// pair that is smallest lexicographically: the path shortest by
// (distance, metric) whose metric the run reports. The frontier, the
// near/far threshold, the early stop and the cutoff read the distance
// alone, exactly as sssp_batch does; a drop of the key (a shorter
// distance, or the same distance with a smaller metric) marks the lane
// pending like a drop of the distance, so every improvement is relaxed
// onwards and the result is the exact fixpoint of the pair rule. The keys
// are seeded by sssp_batch_keys_seed and split back into the distance and
// metric lanes every gather reads by sssp_batch_keys_split. A separate
// kernel keeps sssp_batch's loop free of the second lane.
//
// A metric sum is clamped at MK_METRIC_LIMIT: the clamp is monotone, so
// the smallest clamped pair is the clamped smallest pair, and its metric
// never carries into the distance (a clamped sum plus an arc's metric,
// below 2^31, stays below 2^32). sssp_batch_keys_split refuses a reached
// metric at the limit.

// MK_ARCS is how many arcs relax_key_lanes relaxes at once (BT_ARCS of
// sssp_batch.cu).
#define MK_ARCS 4

// MK_LOCAL is the capacity of each of a block's two shared-memory queues
// (BT_LOCAL of sssp_batch.cu).
#define MK_LOCAL 1024

// MK_METRIC_LIMIT: a metric lane holds sums below it (int32).
#define MK_METRIC_LIMIT 0x7FFFFFFFull

// MK_UNREACHED is the key of a lane not reached: distance INF32, metric 0.
#define MK_UNREACHED ((u64)INF32 << 32)

// key_distance is the distance part of a key.
__device__ __forceinline__ int key_distance(u64 key) { return (int)(key >> 32); }

// key_pick returns x[i] for i < MK_ARCS without indexing a register array
// by a run-time value (which would put it in local memory).
template <typename T>
__device__ __forceinline__ T key_pick(const T (&x)[MK_ARCS], int i) {
  return i == 0 ? x[0] : i == 1 ? x[1] : i == 2 ? x[2] : x[3];
}

// relax_key_lanes is relax_lanes of sssp_batch.cu over keys: a warp takes
// u off a queue and relaxes its out-arcs (weight weights[e], metric
// metric[e]) in every lane where u is pending. The queueing, the far
// bookkeeping and the cutoff go by the candidate's distance; the drop is
// the 64-bit atomicMin's.
__device__ __forceinline__ void relax_key_lanes(int u, bool from_local, const long long* __restrict__ offsets,
                                                const int* __restrict__ targets, const int* __restrict__ weights,
                                                const int* __restrict__ metric, u64* keys, unsigned int* pending,
                                                unsigned int* queued, int threshold, int cutoff,
                                                unsigned int out_stamp, bool to_local, int* local_q, int* local_len,
                                                int* out, int* out_len, int* far_count, int* far_min, u64& relaxed,
                                                u64& improved, bool& overflow) {
  const int lane = threadIdx.x & 31;
  unsigned int lanes = 0;
  if (lane == 0) {
    // As in relax_lanes: clear the block-queue stamp, fence, then take.
    if (from_local) {
      atomicExch(queued + u, 0u);
      __threadfence();
    }
    lanes = atomicExch(pending + u, 0u);
  }
  lanes = __shfl_sync(0xFFFFFFFFu, lanes, 0);
  if (lanes == 0) return;
  const bool mine = (lanes >> lane) & 1u;
  // Read after the pending bits were taken, from L2 (see relax_lanes).
  const u64 ku = mine ? __ldcg(keys + (i64)u * BT_LANES + lane) : MK_UNREACHED;
  const int du = key_distance(ku);
  const u64 mu = ku & 0xFFFFFFFFull;  // <= MK_METRIC_LIMIT
  const i64 end = __ldg(offsets + u + 1);
  for (i64 e = __ldg(offsets + u); e < end; e += MK_ARCS) {
    int v[MK_ARCS], nd[MK_ARCS];
    u64 nk[MK_ARCS];
    unsigned int drop[MK_ARCS], near[MK_ARCS];
    int low[MK_ARCS];
#pragma unroll
    for (int a = 0; a < MK_ARCS; ++a) {
      const bool arc = e + a < end;
      const i64 at = arc ? e + a : e;
      v[a] = __ldg(targets + at);
      nd[a] = du + __ldg(weights + at);  // < 2^31: du <= INF32 and the host checks w < INF32
      const u64 nm = min(mu + (u64)(unsigned int)__ldg(metric + at), MK_METRIC_LIMIT);
      nk[a] = ((u64)(unsigned int)nd[a] << 32) | nm;
      const bool reach = arc && mine;
      relaxed += reach;
      overflow |= reach && nd[a] >= INF32 && cutoff >= INF32;
    }
#pragma unroll
    for (int a = 0; a < MK_ARCS; ++a) {
      const bool apply = e + a < end && mine && nd[a] < INF32 && nd[a] <= cutoff;
      const u64 old = apply ? atomicMin(keys + (i64)v[a] * BT_LANES + lane, nk[a]) : MK_UNREACHED;
      const bool dropped = apply && old > nk[a];
      drop[a] = __ballot_sync(0xFFFFFFFFu, dropped);
      near[a] = __ballot_sync(0xFFFFFFFFu, dropped && nd[a] < threshold);
      low[a] = drop[a] != 0 && near[a] == 0 ? warp_min(dropped ? nd[a] : INF32) : INF32;
    }
    if (lane == 0) {
#pragma unroll
      for (int a = 0; a < MK_ARCS; ++a) improved += __popc(drop[a]);
    }
    if (lane < MK_ARCS) {
      const unsigned int my_drop = key_pick(drop, lane);
      bool append = false;
      const int w = key_pick(v, lane);
      if (my_drop != 0) {
        const unsigned int was = atomicOr(pending + w, my_drop);
        if (key_pick(near, lane) != 0) {
          // Store buffering against a block's take: see relax_lanes.
          __threadfence();
          append = atomicExch(queued + w, out_stamp) != out_stamp;
        } else if (was == 0) {
          atomicAdd(far_count, 1);
          atomicMin(far_min, key_pick(low, lane));
        }
      }
      if (append) {
        const int at = to_local ? atomicAdd(local_len, 1) : MK_LOCAL;
        if (at < MK_LOCAL) {
          local_q[at] = w;
        } else {
          out[warp_append(out_len)] = w;
        }
      }
    }
  }
}

// min_pending_key is the smallest distance among the lanes in which v is
// pending.
__device__ __forceinline__ int min_pending_key(const u64* keys, int v, unsigned int lanes) {
  int m = INF32;
  while (lanes != 0) {
    const int j = __ffs(lanes) - 1;
    lanes &= lanes - 1;
    m = min(m, key_distance(__ldcg(keys + (i64)v * BT_LANES + j)));
  }
  return m;
}

// sssp_batch_metric: arguments as sssp_batch's, with metric (m int, the
// arcs' second value, >= 0) beside weights and keys ([groups][n][BT_LANES]
// u64) for dist.
//
//kernelgen:cooperative
extern "C" __global__ void sssp_batch_metric(const long long* __restrict__ offsets, const int* __restrict__ targets,
                                             const int* __restrict__ weights, const int* __restrict__ metric,
                                             long long n, unsigned long long* keys, unsigned int* pending,
                                             unsigned int* queued, int* near_queue, int* state, long long k,
                                             const int* __restrict__ columns, const long long* __restrict__ row_starts,
                                             long long ncolumns, long long cutoff64, long long delta,
                                             long long timeout_ns, long long local_rounds) {
  __shared__ int local_q[2][MK_LOCAL];
  __shared__ int local_len[2];
  const i64 g = blockIdx.y;
  const int rounds = (int)local_rounds;
  u64* d = keys + g * n * BT_LANES;
  unsigned int* pend = pending + g * n;
  unsigned int* inq = queued + g * n;
  int* nq = near_queue + g * 2 * n;
  int* st = state + g * BT_STATE;
  const int lanes_used = (int)min((i64)BT_LANES, k - g * BT_LANES);
  const int cutoff = (int)min(cutoff64, (i64)INF32);
  const int thread = blockIdx.x * blockDim.x + threadIdx.x;
  const int threads = gridDim.x * blockDim.x;
  const int warp = thread >> 5, warps = threads >> 5;
  const i64 deadline = global_timer() + timeout_ns;
  unsigned int target = 0;
  u64 relaxed = 0, improved = 0;
  bool overflow = false, stopped = false;
  int step = 0, split = 0;
  if (threadIdx.x == 0) local_len[0] = local_len[1] = 0;
  __syncthreads();
  for (;;) {
    // The step structure is sssp_batch's; see its comments.
    if (ncolumns > 0 && split > 0 && load_volatile(st + BT_UNSETTLED + (split - 1) % 3) == 0) {
      stopped = true;
      break;
    }
    const int near_len = load_volatile(st + BT_NEAR + step % 3);
    const int threshold = load_volatile(st + BT_THRESHOLD + (split & 1));
    if (thread == 0) st[BT_NEAR + (step + 2) % 3] = 0;
    int* out = nq + ((step + 1) & 1) * n;
    int* out_len = st + BT_NEAR + (step + 1) % 3;
    const unsigned int out_stamp = step + 2;
    if (near_len > 0) {
      const int* in = nq + (step & 1) * n;
      int* far_count = st + BT_FAR_COUNT + split % 3;
      int* far_min = st + BT_FAR_MIN + split % 3;
      int fill = 0;
      for (int i = warp; i < near_len; i += warps) {
        relax_key_lanes(load_cg(in + i), false, offsets, targets, weights, metric, d, pend, inq, threshold, cutoff,
                        out_stamp, rounds > 0, local_q[fill], &local_len[fill], out, out_len, far_count, far_min,
                        relaxed, improved, overflow);
      }
      for (int sub = 1; sub <= rounds; ++sub) {
        __syncthreads();
        const int len = min(local_len[fill], MK_LOCAL);
        __syncthreads();
        if (len == 0) break;
        const int take = fill;
        fill ^= 1;
        if (threadIdx.x == 0) local_len[take] = 0;
        for (int i = threadIdx.x >> 5; i < len; i += blockDim.x >> 5) {
          relax_key_lanes(local_q[take][i], true, offsets, targets, weights, metric, d, pend, inq, threshold,
                          cutoff, out_stamp, sub < rounds, local_q[fill], &local_len[fill], out, out_len, far_count,
                          far_min, relaxed, improved, overflow);
        }
      }
    } else {
      const int waiting = load_volatile(st + BT_FAR_COUNT + split % 3);
      if (waiting == 0) break;
      const int lowest = load_volatile(st + BT_FAR_MIN + split % 3);
      const int next = (int)min((i64)max(threshold, lowest) + delta, (i64)INF32);
      if (thread == 0) {
        st[BT_THRESHOLD + ((split + 1) & 1)] = next;
        st[BT_FAR_COUNT + (split + 2) % 3] = 0;
        st[BT_FAR_MIN + (split + 2) % 3] = INF32;
        st[BT_UNSETTLED + (split + 1) % 3] = 0;
      }
      // With the near queue empty, every key whose distance is below the
      // threshold is final: a later drop would come from a pending lane
      // at or above it, over arcs of weight >= 0.
      if (ncolumns > 0) {
        int unsettled = 0;
        if (row_starts == nullptr) {
          for (i64 c = thread; c < ncolumns * lanes_used; c += threads) {
            const int v = columns[c / lanes_used];
            unsettled += key_distance(__ldcg(d + (i64)v * BT_LANES + c % lanes_used)) >= threshold;
          }
        } else {
          for (int j = 0; j < lanes_used; ++j) {
            const i64 r = g * BT_LANES + j;
            for (i64 c = row_starts[r] + thread; c < row_starts[r + 1]; c += threads) {
              unsettled += key_distance(__ldcg(d + (i64)columns[c] * BT_LANES + j)) >= threshold;
            }
          }
        }
        if (unsettled > 0) atomicAdd(st + BT_UNSETTLED + split % 3, unsettled);
      }
      for (int v = thread; v < n; v += threads) {
        const unsigned int lanes = __ldcg(pend + v);
        if (lanes == 0) continue;
        const int m = min_pending_key(d, v, lanes);
        if (m < next) {
          if (atomicExch(inq + v, out_stamp) != out_stamp) out[warp_append(out_len)] = v;
        } else {
          atomicAdd(st + BT_FAR_COUNT + (split + 1) % 3, 1);
          atomicMin(st + BT_FAR_MIN + (split + 1) % 3, m);
        }
      }
      ++split;
    }
    ++step;
    if (group_barrier((unsigned int*)(st + BT_ARRIVED), &target, gridDim.x, st + BT_ABORT, deadline)) break;
  }
  if (thread == 0) {
    st[BT_STEPS] = step;
    st[BT_SPLITS] = split;
    st[BT_STOPPED] = stopped;
  }
  if (overflow) st[BT_OVERFLOW] = 1;
  relaxed = warp_sum(relaxed);
  improved = warp_sum(improved);
  if ((threadIdx.x & 31) == 0) {
    atomicAdd((u64*)(st + BT_RELAXED), relaxed);
    atomicAdd((u64*)(st + BT_IMPROVED), improved);
  }
}
