// Layout of the per-source state of the near-far search (sssp_near_far*.cu),
// mirrored by internal/gpu/sssp_near_far.go. Each source owns NF_STATE ints;
// counts cycle through three slots so that a slot is zeroed one step before
// it is appended to and never while another block may still read it.
#pragma once

#define NF_NEAR 0      // near-queue lengths, slot step % 3
#define NF_FAR 3       // far-pile lengths, slot split % 3
#define NF_FAR_MIN 6   // smallest distance put on the far pile, slot split % 3
#define NF_THRESHOLD 9 // near/far threshold, slot split % 2
#define NF_ABORT 11    // set when a barrier waited past the deadline
#define NF_STEPS 12    // steps (barriers) of the finished search
#define NF_SPLITS 13   // far-pile splits (buckets) of the finished search
#define NF_RELAXED 16  // u64: arcs scanned
#define NF_IMPROVED 18 // u64: successful atomicMin relaxations
#define NF_ARRIVED 32  // barrier arrival counter, on a cache line of its own
#define NF_STATE 64
