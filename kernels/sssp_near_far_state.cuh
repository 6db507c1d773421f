// Layout of the per-source state of the near-far search (sssp_near_far*.cu),
// mirrored by internal/gpu/sssp_near_far.go. Each source owns NF_STATE ints;
// counts cycle through three slots so that a slot is zeroed one step before
// it is appended to and never while another block may still read it.
//
// A vertex's distance and queue stamp share one 64-bit word, distance in the
// high half: one atomicMin both lowers the distance and says whether the
// vertex already waits in a near queue (see sssp_near_far.cu).
#pragma once

#define NF_NEAR 0      // near-queue lengths, slot step % 3
#define NF_FAR 3       // far-pile lengths, slot split % 3
#define NF_FAR_MIN 6   // smallest distance put on the far pile, slot split % 3
#define NF_THRESHOLD 9 // near/far threshold, slot split % 2
#define NF_ABORT 11    // set when the launch ran past its deadline
#define NF_STEPS 12    // steps (grid barriers) of the finished search
#define NF_SPLITS 13   // far-pile splits (buckets) of the finished search
#define NF_OVERFLOW 14 // set when a path reached INF32: the int32 distances are not exact
#define NF_RELAXED 16  // u64: arcs scanned
#define NF_IMPROVED 18 // u64: successful relaxations
#define NF_ARRIVED 32  // barrier arrival counter, on a cache line of its own
#define NF_STATE 64

// NF_LOCAL is the capacity of each of a block's two shared-memory queues.
#define NF_LOCAL 1024

// pack_word is a vertex's word: distance d, queue stamp s.
__device__ __forceinline__ u64 pack_word(int d, unsigned int s) { return ((u64)(unsigned int)d << 32) | s; }
__device__ __forceinline__ int word_dist(u64 w) { return (int)(w >> 32); }
__device__ __forceinline__ unsigned int word_stamp(u64 w) { return (unsigned int)w; }
