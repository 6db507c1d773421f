// Package kernelgen turns the CUDA kernels of pathflow's kernels folder into
// what the Go build embeds: PTX made by nvcc, headed by the SHA-256 of the
// kernel's sources, and a typed Go launch wrapper per kernel.
//
// A kernel file kernels/<name>.cu holds exactly one
//
//	extern "C" __global__ void <name>(params...)
//
// and may include local headers ("x.cuh"). Every parameter must be 64 bits
// wide (a pointer, long long, unsigned long long or double): the wrappers
// launch through gorgonia.org/cu, whose Function.Launch copies eight bytes
// from every argument. Parse rejects anything narrower, so a kernel cannot
// silently read half an argument.
//
// A comment line "//kernelgen:cooperative" closing the kernel's comment
// marks a kernel that waits on grid-wide barriers: its wrapper launches it
// cooperatively, through a function the caller loaded for that, and never
// with an ordinary launch, which could leave blocks waiting for blocks
// that never start.
//
// Output is deterministic: the same sources and nvcc version give the same
// files, so CI can regenerate and diff. The command lives in
// cmd/kernelgen and runs through `go generate ./kernels`.
package kernelgen
