// Package allpairs is the GPU backend's Floyd-Warshall family: all-pairs
// shortest paths in int32 on the device layer of package device.
//
// Variants (plan.go): naive (one launch per pivot, one thread per cell),
// row (one thread per row per pivot), blocked (three phases with shared
// memory, tile edge DefaultTileEdge or the request's) and fast (the
// default: register-tiled phase 3, pivot row and column in shared memory,
// the fused add-min), each with or without the predecessor matrix, which
// the kernels track, pack into the distances or derive afterwards
// (ParentStrategy).
//
// A run is planned on the host (plan.go, layout.go: no CUDA, tested in
// every build), then placed (place_cuda.go) on one device, in row slabs over
// several (slabs_cuda.go) or out of core in super-tiles through host memory
// (out_of_core_cuda.go). Serve answers a backend request; Prepare, Run.Compute
// and Run.Stream split it for benchmarks. Rows stream from the matrix on
// the device through the device's Stager, in any order or subset. See
// docs/gpu-floyd-warshall.md and docs/multi-gpu.md.
package allpairs
