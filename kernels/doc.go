// Package kernels holds pathflow's CUDA kernels and their generated Go
// launch wrappers.
//
// Layout: kernels/<name>.cu holds one extern "C" __global__ function named
// <name>; device code shared between kernels lives in *.cuh headers (one
// template per algorithm, instantiated by a distances-only and a
// with-parents kernel file). `go generate ./kernels` runs
// internal/kernelgen, which compiles each kernel with nvcc to <name>.ptx
// (PTX for compute_70, JIT-compiled by the driver for the actual GPU) and
// writes <name>_wrapper_cuda.go: a typed method (*Module).<GoName>(cfg Config,
// args...) that packs the arguments and launches the kernel. A kernel whose
// comment ends with a //kernelgen:cooperative line waits on grid-wide
// barriers; its method also takes the kernel loaded for cooperative
// launches (a CooperativeFunction, from device.LoadCooperative in
// internal/gpu/device) and launches it that way, the only way its blocks
// are sure to be resident together. Load loads
// every embedded PTX into the current CUDA context once and resolves the
// functions, so a launch takes no lock. Generated files are
// committed; each PTX records the SHA-256 of its sources, and a test
// (which needs no nvcc) fails when a kernel changed without regeneration.
//
// Everything here that touches CUDA builds only under the cuda build tag;
// without it the package is empty. The wrappers do not own a context: call
// them on the goroutine that holds one (device.Device.Do in internal/gpu/device),
// which also picks launch shapes and checks sizes. Every scalar kernel
// parameter is 64-bit, because gorgonia.org/cu's Function.Launch copies eight
// bytes per argument; the generator rejects narrower ones.
//
// Adding a kernel: write kernels/<name>.cu (parameters: pointers, long long,
// unsigned long long or double), run `go generate ./kernels` (needs nvcc; see
// scripts/setup-cuda.sh), and call the new wrapper from internal/gpu/allpairs or internal/gpu/sssp.
package kernels

//go:generate go run ../internal/kernelgen/cmd/kernelgen -dir .
