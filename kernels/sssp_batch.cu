#include "sssp_common.cuh"
#include "sssp_batch_state.cuh"

// BT_ARCS is how many arcs relax_lanes relaxes at once: their atomics are
// issued together, so a vertex of degree up to BT_ARCS costs about one
// atomic's latency instead of one per arc.
#define BT_ARCS 4

// BT_LOCAL is the capacity of each of a block's two shared-memory queues.
#define BT_LOCAL 1024

// lane_pick returns x[i] for i < BT_ARCS without indexing a register array
// by a run-time value (which would put it in local memory).
template <typename T>
__device__ __forceinline__ T lane_pick(const T (&x)[BT_ARCS], int i) {
  return i == 0 ? x[0] : i == 1 ? x[1] : i == 2 ? x[2] : x[3];
}

// relax_lanes is one warp taking vertex u off a queue and relaxing its
// out-arcs in every lane where u is pending: lane j holds u's distance from
// source j of the group. Taking u clears its pending lanes with the atomic
// that reads them, so a drop that comes later marks it again.
//
// A drop of v's lane below the threshold queues v for the next step unless
// it already waits there (queued[v] == out_stamp); a drop at or above it
// only marks v pending, and if v was pending in no lane it counts as
// waiting beyond the threshold (far_count, far_min), where the next raise
// of the threshold finds it. Drops beyond cutoff are not applied: a search
// with a cutoff never looks past it. Lanes 0..BT_ARCS-1 then do the
// bookkeeping of one arc each, so a vertex's arcs cost one round of
// atomics.
__device__ __forceinline__ void relax_lanes(int u, bool from_local, const long long* __restrict__ offsets,
                                            const int* __restrict__ targets, const int* __restrict__ weights,
                                            int* dist, unsigned int* pending, unsigned int* queued, int threshold,
                                            int cutoff, unsigned int out_stamp, bool to_local, int* local_q,
                                            int* local_len, int* out, int* out_len, int* far_count, int* far_min,
                                            u64& relaxed, u64& improved, bool& overflow) {
  const int lane = threadIdx.x & 31;
  unsigned int lanes = 0;
  if (lane == 0) {
    // A vertex from the block's own queue still carries out_stamp: clear
    // it before taking its lanes, so a drop after the take queues it again.
    // The fence keeps that order: without it the two atomics (different
    // lines) may be performed in either order, a dropper's atomicOr can land
    // after the take while its atomicExch on queued still sees out_stamp,
    // and the vertex is left pending in no queue (see the dropper's fence).
    if (from_local) {
      atomicExch(queued + u, 0u);
      __threadfence();
    }
    lanes = atomicExch(pending + u, 0u);
  }
  lanes = __shfl_sync(0xFFFFFFFFu, lanes, 0);
  if (lanes == 0) return;
  const bool mine = (lanes >> lane) & 1u;
  // The distance is read after the pending bits were taken: a dropping
  // warp sets a bit only after its atomicMin on the distance returned (the
  // bit is a ballot of its results), so that atomic is already performed
  // in L2, which __ldcg reads.
  const int du = mine ? __ldcg(dist + (i64)u * BT_LANES + lane) : INF32;
  const i64 end = __ldg(offsets + u + 1);
  for (i64 e = __ldg(offsets + u); e < end; e += BT_ARCS) {
    int v[BT_ARCS], nd[BT_ARCS];
    unsigned int drop[BT_ARCS], near[BT_ARCS];
    int low[BT_ARCS];
#pragma unroll
    for (int a = 0; a < BT_ARCS; ++a) {
      const bool arc = e + a < end;
      v[a] = __ldg(targets + (arc ? e + a : e));
      nd[a] = du + __ldg(weights + (arc ? e + a : e));  // < 2^31: du <= INF32 and the host checks w < INF32
      const bool reach = arc && mine;
      relaxed += reach;
      overflow |= reach && nd[a] >= INF32 && cutoff >= INF32;
    }
    int old[BT_ARCS];
#pragma unroll
    for (int a = 0; a < BT_ARCS; ++a) {
      const bool apply = e + a < end && mine && nd[a] < INF32 && nd[a] <= cutoff;
      old[a] = apply ? atomicMin(dist + (i64)v[a] * BT_LANES + lane, nd[a]) : INF32;
      const bool dropped = apply && old[a] > nd[a];
      drop[a] = __ballot_sync(0xFFFFFFFFu, dropped);
      near[a] = __ballot_sync(0xFFFFFFFFu, dropped && nd[a] < threshold);
      low[a] = drop[a] != 0 && near[a] == 0 ? warp_min(dropped ? nd[a] : INF32) : INF32;
    }
    if (lane == 0) {
#pragma unroll
      for (int a = 0; a < BT_ARCS; ++a) improved += __popc(drop[a]);
    }
    if (lane < BT_ARCS) {
      const unsigned int my_drop = lane_pick(drop, lane);
      bool append = false;
      const int w = lane_pick(v, lane);
      if (my_drop != 0) {
        const unsigned int was = atomicOr(pending + w, my_drop);
        if (lane_pick(near, lane) != 0) {
          // Store buffering against a block taking w from its shared queue
          // (clear queued, fence, take pending): with a fence on both sides
          // either the take sees these bits or this exchange sees the clear
          // and queues w again; never neither.
          __threadfence();
          append = atomicExch(queued + w, out_stamp) != out_stamp;
        } else if (was == 0) {
          atomicAdd(far_count, 1);
          atomicMin(far_min, lane_pick(low, lane));
        }
      }
      if (append) {
        const int at = to_local ? atomicAdd(local_len, 1) : BT_LOCAL;
        if (at < BT_LOCAL) {
          local_q[at] = w;
        } else {
          out[warp_append(out_len)] = w;
        }
      }
    }
  }
}

// min_pending is the smallest distance among the lanes in which v is
// pending (one thread reads them; pending vertices are few at a raise).
__device__ __forceinline__ int min_pending(const int* dist, int v, unsigned int lanes) {
  int m = INF32;
  while (lanes != 0) {
    const int j = __ffs(lanes) - 1;
    lanes &= lanes - 1;
    m = min(m, __ldcg(dist + (i64)v * BT_LANES + j));
  }
  return m;
}

// sssp_batch runs batched near-far searches in one cooperative launch: the
// blocks with blockIdx.y == g search for the (up to) BT_LANES sources of
// group g together, from the state sssp_batch_init left, and meet at a
// barrier of their own after every step.
//
// It is near-far (Davidson et al.'s delta-stepping variant) over vectors:
// each vertex holds a distance per source and a mask of the lanes whose
// distance dropped since the vertex last relaxed its arcs (pending). The
// group shares one near queue and one threshold, so a round carries the
// frontiers of all its sources, and a warp relaxes an arc for all of them
// with one coalesced line of atomics. A step either relaxes every vertex of
// the near queue (one warp each), or, once it is empty, raises the
// threshold by delta (from the smallest distance left waiting when that is
// higher) and rescans the pending masks: vertices whose smallest pending
// distance is now below the threshold join the near queue, the rest are
// counted as waiting. The search ends when nothing waits. Every vertex
// whose distance dropped in some lane relaxes that lane afterwards, so the
// result is exact for non-negative weights, whatever order the shared
// threshold imposes.
//
// Within a relax step each block first takes its share of the step's
// queue, then for up to local_rounds rounds, with block barriers only,
// relaxes the vertices it queued itself in shared memory, so a wave
// advances several arcs per grid barrier (as in sssp_near_far).
//
// Early stop: when the near queue is empty every distance below the
// threshold is final. With targets (ntargets > 0, targets[] the columns
// every source reports, or with rows, row_targets[row_starts[r] ..
// row_starts[r+1]) the columns of source r), a raise first counts the
// (target, lane) cells still at or above the threshold; once a raise counts
// none, the group stops. cutoff (INF32 for none) bounds every distance that
// is applied.
//
// A relaxation that reaches INF32 is not applied but recorded (BT_OVERFLOW)
// unless a cutoff excludes it: the host then refuses the int32 result.
//
// dist [groups][n][BT_LANES]; pending and queued [groups][n]; near_queue
// two n-slot buffers per group; state BT_STATE ints per group. A queue
// holds a vertex at most once (queued stamps), so n slots suffice.
//
//kernelgen:cooperative
extern "C" __global__ void sssp_batch(const long long* __restrict__ offsets, const int* __restrict__ targets,
                                      const int* __restrict__ weights, long long n, int* dist,
                                      unsigned int* pending, unsigned int* queued, int* near_queue, int* state,
                                      long long k, const int* __restrict__ columns,
                                      const long long* __restrict__ row_starts, long long ncolumns,
                                      long long cutoff64, long long delta, long long timeout_ns,
                                      long long local_rounds) {
  __shared__ int local_q[2][BT_LOCAL];
  __shared__ int local_len[2];
  const i64 g = blockIdx.y;
  const int rounds = (int)local_rounds;
  int* d = dist + g * n * BT_LANES;
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
    // A raise two steps back (or more) that found every target settled
    // stops the group; every block reads the same slot after a barrier.
    if (ncolumns > 0 && split > 0 && load_volatile(st + BT_UNSETTLED + (split - 1) % 3) == 0) {
      stopped = true;
      break;
    }
    const int near_len = load_volatile(st + BT_NEAR + step % 3);
    const int threshold = load_volatile(st + BT_THRESHOLD + (split & 1));
    if (thread == 0) st[BT_NEAR + (step + 2) % 3] = 0;  // next step's output, read last in the previous step
    int* out = nq + ((step + 1) & 1) * n;
    int* out_len = st + BT_NEAR + (step + 1) % 3;
    const unsigned int out_stamp = step + 2;
    if (near_len > 0) {
      const int* in = nq + (step & 1) * n;
      int* far_count = st + BT_FAR_COUNT + split % 3;
      int* far_min = st + BT_FAR_MIN + split % 3;
      int fill = 0;
      for (int i = warp; i < near_len; i += warps) {
        relax_lanes(load_cg(in + i), false, offsets, targets, weights, d, pend, inq, threshold, cutoff, out_stamp,
                    rounds > 0, local_q[fill], &local_len[fill], out, out_len, far_count, far_min, relaxed,
                    improved, overflow);
      }
      // Local rounds: the block relaxes what it queued itself, with block
      // barriers only; the last round sends its drops to the next step.
      for (int sub = 1; sub <= rounds; ++sub) {
        __syncthreads();
        const int len = min(local_len[fill], BT_LOCAL);
        __syncthreads();
        if (len == 0) break;
        const int take = fill;
        fill ^= 1;
        if (threadIdx.x == 0) local_len[take] = 0;  // all have read it; it fills again next round
        for (int i = threadIdx.x >> 5; i < len; i += blockDim.x >> 5) {
          relax_lanes(local_q[take][i], true, offsets, targets, weights, d, pend, inq, threshold, cutoff, out_stamp,
                      sub < rounds, local_q[fill], &local_len[fill], out, out_len, far_count, far_min, relaxed,
                      improved, overflow);
        }
      }
    } else {
      const int waiting = load_volatile(st + BT_FAR_COUNT + split % 3);
      if (waiting == 0) break;
      const int lowest = load_volatile(st + BT_FAR_MIN + split % 3);
      const int next = (int)min((i64)max(threshold, lowest) + delta, (i64)INF32);
      if (thread == 0) {
        st[BT_THRESHOLD + ((split + 1) & 1)] = next;
        // The raise after next counts its leftovers into these; the rescan
        // below and the steps up to the next raise count into (split + 1) % 3,
        // cleared one raise ago, so no clear races an add.
        st[BT_FAR_COUNT + (split + 2) % 3] = 0;
        st[BT_FAR_MIN + (split + 2) % 3] = INF32;
        st[BT_UNSETTLED + (split + 1) % 3] = 0;  // the next raise counts into it; read last two raises ago
      }
      // Count targets not yet settled below the threshold before raising it.
      if (ncolumns > 0) {
        int unsettled = 0;
        if (row_starts == nullptr) {
          for (i64 c = thread; c < ncolumns * lanes_used; c += threads) {
            const int v = columns[c / lanes_used];
            unsettled += __ldcg(d + (i64)v * BT_LANES + c % lanes_used) >= threshold;
          }
        } else {
          for (int j = 0; j < lanes_used; ++j) {
            const i64 r = g * BT_LANES + j;
            for (i64 c = row_starts[r] + thread; c < row_starts[r + 1]; c += threads) {
              unsettled += __ldcg(d + (i64)columns[c] * BT_LANES + j) >= threshold;
            }
          }
        }
        if (unsettled > 0) atomicAdd(st + BT_UNSETTLED + split % 3, unsettled);
      }
      // Rescan: every pending vertex either joins the next near queue or
      // is counted as waiting for a later raise.
      for (int v = thread; v < n; v += threads) {
        const unsigned int lanes = __ldcg(pend + v);
        if (lanes == 0) continue;
        const int m = min_pending(d, v, lanes);
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
