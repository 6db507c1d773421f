#include "apsp_common.cuh"

#define PEAK_CHAINS 16

// add_min_peak measures the chip's int32 add-min rate from registers alone:
// each thread runs PEAK_CHAINS independent triples (x, y, z) and per
// iteration does x = min(y + z, x), y = min(z + x, y), z = min(x + y, z), so
// 3 * PEAK_CHAINS add-mins per iteration; iterations is rounded down to a
// multiple of 4. Values start in [0, 1023] and never
// grow, so nothing overflows; the sum is stored so nothing is optimised away.
extern "C" __global__ void add_min_peak(int* __restrict__ out, long long iterations, long long seed) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  int x[PEAK_CHAINS], y[PEAK_CHAINS], z[PEAK_CHAINS];
#pragma unroll
  for (int i = 0; i < PEAK_CHAINS; ++i) {
    const unsigned h = (t * 2654435761u) ^ (unsigned)(seed + 97 * i);
    x[i] = h & 1023;
    y[i] = (h >> 10) & 1023;
    z[i] = (h >> 20) & 1023;
  }
  // Four iterations per trip and a 32-bit trip count keep the loop's own
  // instructions off the integer pipe's critical share.
  const int trips = (int)(iterations / 4);
  for (int it = 0; it < trips; ++it) {
#pragma unroll
    for (int u = 0; u < 4; ++u)
#pragma unroll
      for (int i = 0; i < PEAK_CHAINS; ++i) {
        x[i] = add_min(y[i], z[i], x[i]);
        y[i] = add_min(z[i], x[i], y[i]);
        z[i] = add_min(x[i], y[i], z[i]);
      }
  }
  int sum = 0;
#pragma unroll
  for (int i = 0; i < PEAK_CHAINS; ++i) sum += x[i] + y[i] + z[i];
  out[t] = sum;
}
