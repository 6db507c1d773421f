//go:build cuda

package kernels

// StrideBlocksPerSM bounds grid-stride launches: enough blocks to fill
// every multiprocessor several times over, few enough that each thread
// loops. The launch shapes built on it are in internal/gpu/device
// (launch_cuda.go).
const StrideBlocksPerSM = 16
