#include "sssp_common.cuh"
#include "sssp_near_far_state.cuh"

// sssp_near_far runs whole near-far searches (Davidson et al.'s variant of
// delta-stepping) in one cooperative launch: the blocks with blockIdx.y == g
// solve row g of the [k][n] arrays from the state sssp_near_far_init left,
// and meet at a barrier of their own after every step, so the host sees one
// launch per batch of sources instead of one per step.
//
// Vertices whose distance dropped wait in one of two places: the near queue
// when the new distance is below the threshold, the far pile otherwise. A
// step either relaxes the out-arcs of every vertex of the near queue (each
// thread one vertex, reading its distance at that moment), filling the next
// near queue and the far pile, or, once the near queue is empty, raises the
// threshold by delta (from the far pile's smallest recorded distance when
// that is higher) and splits the far pile: vertices now below the threshold
// go to the near queue, entries already settled through the near queue
// (distance under the old threshold) are dropped, the rest stay. The search
// ends when both are empty.
//
// No slot of a queue is lost or doubled: appends reserve slots with one
// atomic per warp (warp_append); a vertex enters a near queue at most once
// per step (mark holds the step it was last queued for) and the far pile at
// most once per search (a vertex leaves it only when its distance is below
// the threshold, which then holds for good), so n slots always suffice.
// Each vertex whose distance dropped is queued at least once after the
// drop, so the result is exact for non-negative weights.
//
// near_queue and far_pile hold two n-slot buffers per row; offsets, targets
// and weights are the CSR graph. delta is the threshold step; timeout_ns
// bounds each barrier wait (see group_barrier). The state row records steps,
// splits, arcs scanned and successful relaxations.
extern "C" __global__ void sssp_near_far(const long long* __restrict__ offsets, const int* __restrict__ targets,
                                         const int* __restrict__ weights, long long n, int* dist, int* mark,
                                         int* on_far, int* near_queue, int* far_pile, int* state, long long delta,
                                         long long timeout_ns) {
  const i64 g = blockIdx.y;
  int* d = dist + g * n;
  int* mk = mark + g * n;
  int* of = on_far + g * n;
  int* nq = near_queue + g * 2 * n;
  int* fp = far_pile + g * 2 * n;
  int* st = state + g * NF_STATE;
  const int first = blockIdx.x * blockDim.x + threadIdx.x;
  const int threads = gridDim.x * blockDim.x;
  const i64 deadline = global_timer() + timeout_ns;
  unsigned int target = 0;
  u64 relaxed = 0, improved = 0;
  int step = 0, split = 0;
  for (;;) {
    const int near_len = load_volatile(st + NF_NEAR + step % 3);
    const int threshold = load_volatile(st + NF_THRESHOLD + (split & 1));
    if (first == 0) st[NF_NEAR + (step + 2) % 3] = 0;  // next step's output, read last in the previous step
    int* out = nq + ((step + 1) & 1) * n;
    int* out_len = st + NF_NEAR + (step + 1) % 3;
    if (near_len > 0) {
      const int* in = nq + (step & 1) * n;
      int* far = fp + (split & 1) * n;
      int* far_len = st + NF_FAR + split % 3;
      int* far_min = st + NF_FAR_MIN + split % 3;
      const int stamp = step + 1;
      for (int i = first; i < near_len; i += threads) {
        const int u = load_cg(in + i);
        const int du = load_cg(d + u);
        const i64 end = __ldg(offsets + u + 1);
        for (i64 e = __ldg(offsets + u); e < end; ++e) {
          const int v = __ldg(targets + e);
          const int nd = du + __ldg(weights + e);
          ++relaxed;
          if (nd < atomicMin(d + v, nd)) {
            ++improved;
            if (nd < threshold) {
              if (atomicMax(mk + v, stamp) < stamp) out[warp_append(out_len)] = v;
            } else if (atomicExch(of + v, 1) == 0) {
              far[warp_append(far_len)] = v;
              atomicMin(far_min, nd);
            }
          }
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
        const int dv = load_cg(d + v);
        if (dv < threshold) continue;  // settled through a near queue
        if (dv < next) {
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
  relaxed = warp_sum(relaxed);
  improved = warp_sum(improved);
  if ((threadIdx.x & 31) == 0) {
    atomicAdd((u64*)(st + NF_RELAXED), relaxed);
    atomicAdd((u64*)(st + NF_IMPROVED), improved);
  }
}
