#include "floyd_warshall_fast.cuh"

// floyd_warshall_tile_close closes one 128 x 128 diagonal tile over its own
// vertices (phase 1 of a round), distances only: tile points at its first
// cell, rows pitch apart, and vertex0 is its first vertex's id, reported
// in negative when a diagonal value turns negative. Launched as one 32 x 32
// block. The multi-device and out-of-core schedules build every round
// from this kernel and floyd_warshall_min_plus.
extern "C" __global__ void __launch_bounds__(1024) floyd_warshall_tile_close(int* __restrict__ tile, long long pitch,
                                                                           long long vertex0,
                                                                           int* __restrict__ negative) {
  fast_close_tile<false>(tile, nullptr, pitch, vertex0, negative);
}
