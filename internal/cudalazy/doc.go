// Package cudalazy writes the lazy driver trampolines of pathflow's copy of
// gorgonia.org/cu (third_party/cu/lazy_driver.c), so that a binary built
// with -tags cuda links no libcuda and starts on hosts without the NVIDIA
// driver.
//
// For every CUDA driver function the copy calls (C.cuXxx in its Go files,
// cuXxx(...) in its C files) the generated file defines a function of the
// same name and prototype, taken from cuda.h. The first call loads
// libcuda.so.1 (dlopen) and resolves the function (dlsym); later calls go
// straight through. cuda.h renames many functions with #define (cuMemAlloc
// is cuMemAlloc_v2, cuCtxCreate is cuCtxCreate_v2): the trampoline is
// defined under the header's name, so the preprocessor renames it the same
// way, and the symbol looked up is the renamed one. When the library or a
// symbol is missing the trampoline returns CUDA_ERROR_NOT_INITIALIZED or
// CUDA_ERROR_NOT_FOUND instead of calling anything.
//
// The file is committed; a test fails when it no longer matches what the
// copy calls and the installed cuda.h declares (scripts/setup-cuda.sh).
// Regenerate it with `go generate ./internal/cudalazy`.
package cudalazy

//go:generate go run ./cmd/cudalazy -dir ../../third_party/cu -header /usr/include/cuda.h
