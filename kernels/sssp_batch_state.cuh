// Layout of the per-group state of the batched near-far search
// (sssp_batch*.cu), mirrored by internal/gpu/sssp_batch.go. A group is up to
// BT_LANES sources searched together: each vertex holds one distance per
// source (lane), [n][BT_LANES] int32, so the 32 threads of a warp relax one
// arc for every source of the group with coalesced atomics, and one queue of
// vertices carries the frontiers of all of them. Counts cycle through three
// slots so that a slot is zeroed one step before it is written and never
// while another block may still read it.
#pragma once

#define BT_LANES 32       // sources per group: one per thread of a warp
#define BT_NEAR 0         // near-queue lengths, slot step % 3
#define BT_THRESHOLD 3    // near/far threshold, slot split % 2
#define BT_FAR_COUNT 5    // vertices left waiting beyond the threshold, slot split % 3
#define BT_FAR_MIN 8      // their smallest distance, slot split % 3
#define BT_UNSETTLED 11   // targets not yet settled at a split, slot split % 3
#define BT_ABORT 14       // set when the launch ran past its deadline
#define BT_STEPS 15       // steps (grid barriers) of the finished search
#define BT_SPLITS 16      // threshold raises of the finished search
#define BT_OVERFLOW 17    // set when a path reached INF32: the int32 distances are not exact
#define BT_RELAXED 18     // u64: arcs scanned, summed over lanes
#define BT_IMPROVED 20    // u64: successful relaxations, summed over lanes
#define BT_STOPPED 22     // set when the search stopped because every target was settled
#define BT_METRIC_OVERFLOW 23  // set when a metric search's reached metric hit the clamp (sssp_batch_keys_split)
#define BT_ARRIVED 32     // barrier arrival counter, on a cache line of its own
#define BT_STATE 64
#define BT_CELL_CHUNK 1024  // vertices a warp walks in sssp_batch_cells_*, one lane per source

// warp_min is the smallest v over the warp's 32 lanes (all must call it).
__device__ __forceinline__ int warp_min(int v) {
  for (int d = 16; d > 0; d >>= 1) v = min(v, __shfl_xor_sync(0xFFFFFFFFu, v, d));
  return v;
}

// tight_parent is the parent of vertex v in lane j of a group's distances
// (dist, [n][BT_LANES]): the in-neighbour u of smallest vertex id with
// dist[u] + w(u, v) == dist[v], the rule every backend uses, or -1 for the
// lane's source and for unreachable vertices. ids, when not null, is the
// vertex id of each index (a compact ch run's distances are indexed by
// position in its selection); u is returned as an index. It reads the whole reverse
// row, so the rows' order does not matter (a reverse graph built on the
// device lists in-arcs in the order its atomics ran). dist[v] must be
// final; then so is every such u, so the rule does not depend on how far
// the rest of the search went. The threads of a warp call it for one v in
// 32 lanes, so their loads of dist[u] are one coalesced line per in-arc.
__device__ __forceinline__ int tight_parent(const long long* __restrict__ rev_offsets,
                                            const int* __restrict__ rev_sources, const int* __restrict__ rev_weights,
                                            const int* __restrict__ ids, const int* __restrict__ dist, int v, int j,
                                            int source) {
  const int dv = dist[(long long)v * BT_LANES + j];
  if (dv >= INF32 || v == source) return -1;
  int best = -1, best_id = 0;
  const long long end = __ldg(rev_offsets + v + 1);
  for (long long e = __ldg(rev_offsets + v); e < end; ++e) {
    const int u = __ldg(rev_sources + e);
    const int du = dist[(long long)u * BT_LANES + j];
    if (du < INF32 && du + __ldg(rev_weights + e) == dv) {
      const int id = ids != nullptr ? __ldg(ids + u) : u;
      if (best < 0 || id < best_id) best = u, best_id = id;
    }
  }
  return best;
}
