#include "sssp_common.cuh"
#include "sssp_near_far_state.cuh"

// NF_ARCS is how many arcs relax_from relaxes at once: their atomics are
// issued together, so a vertex of degree up to NF_ARCS costs about one
// atomic's latency instead of one per arc.
#define NF_ARCS 4

// relax_from takes vertex u off a queue and relaxes its out-arcs.
//
// Taking clears u's stamp with the same atomic that reads its distance, so a
// drop that comes later queues u again, and a drop that came earlier is in
// the distance read. A drop of v below the threshold writes v's word with
// out_stamp and queues v unless its old stamp says it already waits: in the
// step's input (in_stamp, not yet taken) or for the next step (out_stamp).
// So a vertex waits in at most one queue at a time and every queue holds
// each vertex at most once. It goes to the block's shared queue when
// to_local and there is room, to the next step's queue otherwise. A drop
// at or above the threshold writes stamp 0 and puts v on the far pile,
// once per search (on_far).
__device__ __forceinline__ void relax_from(int u, const long long* __restrict__ offsets,
                                           const int* __restrict__ targets, const int* __restrict__ weights,
                                           u64* words, int* on_far, int threshold, unsigned int in_stamp,
                                           unsigned int out_stamp, bool to_local, int* local_q, int* local_len,
                                           int* out, int* out_len, int* far, int* far_len, int* far_min,
                                           u64& relaxed, u64& improved, bool& overflow) {
  const int du = word_dist(atomicAnd(words + u, 0xFFFFFFFF00000000ull));
  const i64 end = __ldg(offsets + u + 1);
  for (i64 e = __ldg(offsets + u); e < end; e += NF_ARCS) {
    int v[NF_ARCS], nd[NF_ARCS];
    bool valid[NF_ARCS];
    u64 old[NF_ARCS];
    // No branches around the loads and atomics, so that they issue back to
    // back: a missing arc reads arc e again and turns into a no-op atomicMin
    // on u's own word.
#pragma unroll
    for (int j = 0; j < NF_ARCS; ++j) {
      const bool arc = e + j < end;
      const i64 a = arc ? e + j : e;
      v[j] = __ldg(targets + a);
      nd[j] = du + __ldg(weights + a);  // < 2^31: du < INF32 and the host checks w < INF32
      relaxed += arc;
      overflow |= arc && nd[j] >= INF32;
      valid[j] = arc && nd[j] < INF32;
    }
#pragma unroll
    for (int j = 0; j < NF_ARCS; ++j) {
      u64* at = valid[j] ? words + v[j] : words + u;
      old[j] = atomicMin(at, valid[j] ? pack_word(nd[j], nd[j] < threshold ? out_stamp : 0) : ~0ull);
    }
#pragma unroll
    for (int j = 0; j < NF_ARCS; ++j) {
      if (!valid[j] || word_dist(old[j]) <= nd[j]) continue;
      ++improved;
      if (nd[j] < threshold) {
        const unsigned int s = word_stamp(old[j]);
        if (s != in_stamp && s != out_stamp) {
          const int at = to_local ? atomicAdd(local_len, 1) : NF_LOCAL;
          if (at < NF_LOCAL) {
            local_q[at] = v[j];
          } else {
            out[warp_append(out_len)] = v[j];
          }
        }
      } else if (atomicExch(on_far + v[j], 1) == 0) {
        far[warp_append(far_len)] = v[j];
        atomicMin(far_min, nd[j]);
      }
    }
  }
}

// sssp_near_far runs whole near-far searches (Davidson et al.'s variant of
// delta-stepping) in one cooperative launch: the blocks with blockIdx.y == g
// solve row g of the [k][n] arrays from the state sssp_near_far_init left,
// and meet at a barrier of their own after every step, so the host sees one
// launch per batch of sources instead of one per step.
//
// Vertices whose distance dropped wait in one of two places: a near queue
// when the new distance is below the threshold, the far pile otherwise. A
// step either relaxes the out-arcs of every vertex of the near queue, or,
// once it is empty, raises the threshold by delta (from the far pile's
// smallest recorded distance when that is higher) and splits the far pile:
// vertices now below the threshold go to the near queue, entries already
// settled through a near queue (distance under the old threshold) are
// dropped, the rest stay. The search ends when both are empty.
//
// Within a relax step each block first takes its share of the step's queue,
// then, for up to local_rounds rounds separated by block barriers only,
// relaxes the vertices it queued itself in shared memory: a wave advances
// several arcs per grid barrier. What is left at the end, or does not fit,
// goes to the next step's queue.
//
// Appends reserve slots with one atomic per warp (warp_append). Each queue
// holds a vertex at most once (see relax_from) and the far pile too, so n
// slots always suffice. Each vertex whose distance dropped is relaxed after
// the drop, so the result is exact for non-negative weights.
//
// A relaxation that reaches INF32 is not applied but recorded in the state
// (NF_OVERFLOW): some shortest path may then be longer than int32 holds,
// and the host refuses the result. Without it every distance is exact,
// since each prefix of a shortest path is no longer than the path. This
// lets graphs whose worst-case bound (n - 1) * max weight exceeds INF32,
// large grids for instance, run in int32 when their real distances fit.
//
// words holds each vertex's distance and stamp (sssp_near_far_state.cuh);
// near_queue and far_pile hold two n-slot buffers per row; offsets, targets
// and weights are the CSR graph. delta is the threshold step; timeout_ns
// bounds the launch (see group_barrier). The state row records steps,
// splits, arcs scanned and successful relaxations.
//
//kernelgen:cooperative
extern "C" __global__ void sssp_near_far(const long long* __restrict__ offsets, const int* __restrict__ targets,
                                         const int* __restrict__ weights, long long n, u64* words, int* on_far,
                                         int* near_queue, int* far_pile, int* state, long long delta,
                                         long long timeout_ns, long long local_rounds) {
  __shared__ int local_q[2][NF_LOCAL];
  __shared__ int local_len[2];
  const i64 g = blockIdx.y;
  u64* w = words + g * n;
  int* of = on_far + g * n;
  int* nq = near_queue + g * 2 * n;
  int* fp = far_pile + g * 2 * n;
  int* st = state + g * NF_STATE;
  const int first = blockIdx.x * blockDim.x + threadIdx.x;
  const int threads = gridDim.x * blockDim.x;
  const int rounds = (int)local_rounds;
  const i64 deadline = global_timer() + timeout_ns;
  unsigned int target = 0;
  u64 relaxed = 0, improved = 0;
  bool overflow = false;
  int step = 0, split = 0;
  if (threadIdx.x == 0) local_len[0] = local_len[1] = 0;
  __syncthreads();
  for (;;) {
    const int near_len = load_volatile(st + NF_NEAR + step % 3);
    const int threshold = load_volatile(st + NF_THRESHOLD + (split & 1));
    if (first == 0) st[NF_NEAR + (step + 2) % 3] = 0;  // next step's output, read last in the previous step
    int* out = nq + ((step + 1) & 1) * n;
    int* out_len = st + NF_NEAR + (step + 1) % 3;
    const unsigned int in_stamp = step + 1, out_stamp = step + 2;
    if (near_len > 0) {
      const int* in = nq + (step & 1) * n;
      int* far = fp + (split & 1) * n;
      int* far_len = st + NF_FAR + split % 3;
      int* far_min = st + NF_FAR_MIN + split % 3;
      int fill = 0;
      for (int i = first; i < near_len; i += threads) {
        relax_from(load_cg(in + i), offsets, targets, weights, w, of, threshold, in_stamp, out_stamp, rounds > 0,
                   local_q[fill], &local_len[fill], out, out_len, far, far_len, far_min, relaxed, improved, overflow);
      }
      for (int sub = 1; sub <= rounds; ++sub) {
        __syncthreads();
        const int len = min(local_len[fill], NF_LOCAL);
        __syncthreads();
        if (len == 0) break;
        const int take = fill;
        fill ^= 1;
        if (threadIdx.x == 0) local_len[take] = 0;  // all have read it; it fills again next round
        for (int i = threadIdx.x; i < len; i += blockDim.x) {
          relax_from(local_q[take][i], offsets, targets, weights, w, of, threshold, in_stamp, out_stamp,
                     sub < rounds, local_q[fill], &local_len[fill], out, out_len, far, far_len, far_min, relaxed,
                     improved, overflow);
        }
      }
    } else {
      const int far_len = load_volatile(st + NF_FAR + split % 3);
      if (far_len == 0) break;
      const int far_lowest = load_volatile(st + NF_FAR_MIN + split % 3);
      const int next = (int)min((i64)max(threshold, far_lowest) + delta, (i64)INF32);
      if (first == 0) {
        st[NF_THRESHOLD + ((split + 1) & 1)] = next;
        st[NF_FAR + (split + 2) % 3] = 0;  // the split after next keeps into it
        st[NF_FAR_MIN + (split + 2) % 3] = INF32;
      }
      const int* pile = fp + (split & 1) * n;
      int* keep = fp + ((split + 1) & 1) * n;
      int* keep_len = st + NF_FAR + (split + 1) % 3;
      int* keep_min = st + NF_FAR_MIN + (split + 1) % 3;
      for (int i = first; i < far_len; i += threads) {
        const int v = load_cg(pile + i);
        const int dv = word_dist(__ldcg(w + v));
        if (dv < threshold) continue;  // settled through a near queue
        if (dv < next) {
          atomicOr(w + v, (u64)out_stamp);  // its stamp was 0: now waiting for the next step
          out[warp_append(out_len)] = v;
        } else {
          keep[warp_append(keep_len)] = v;
          atomicMin(keep_min, dv);
        }
      }
      ++split;
    }
    ++step;
    if (group_barrier((unsigned int*)(st + NF_ARRIVED), &target, gridDim.x, st + NF_ABORT, deadline)) break;
  }
  if (first == 0) {
    st[NF_STEPS] = step;
    st[NF_SPLITS] = split;
  }
  if (overflow) st[NF_OVERFLOW] = 1;
  relaxed = warp_sum(relaxed);
  improved = warp_sum(improved);
  if ((threadIdx.x & 31) == 0) {
    atomicAdd((u64*)(st + NF_RELAXED), relaxed);
    atomicAdd((u64*)(st + NF_IMPROVED), improved);
  }
}
