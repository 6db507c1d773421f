// The CUDA driver functions that internal/gpu calls itself (those
// gorgonia.org/cu does not wrap). Nothing links libcuda: each is a pointer
// set by resolveDriver (driver_cuda.go) from the library gorgonia.org/cu loaded
// at run time (third_party/cu/lazy.c), under the name cuda.h maps it to
// (cuMemcpyDtoHAsync is cuMemcpyDtoHAsync_v2). Call driver_<name>.

#ifndef PATHFLOW_GPU_DRIVER_H
#define PATHFLOW_GPU_DRIVER_H

#include <cuda.h>

#define DRIVER_FUNCTIONS(X)                           \
	X(cuGetErrorName)                             \
	X(cuMemHostRegister)                          \
	X(cuMemHostUnregister)                        \
	X(cuMemcpyDtoHAsync)                          \
	X(cuMemcpy2DAsync)                            \
	X(cuLaunchCooperativeKernel)                  \
	X(cuModuleLoadData)                           \
	X(cuModuleGetFunction)                        \
	X(cuOccupancyMaxActiveBlocksPerMultiprocessor) \
	X(cuModuleUnload)

// driver_<name> has the type of the function cuda.h declares for <name>;
// the ## keeps the unversioned name, __typeof__ sees the versioned one.
#define DRIVER_DECLARE(f) extern __typeof__(f) *driver_##f;
DRIVER_FUNCTIONS(DRIVER_DECLARE)
#undef DRIVER_DECLARE

// driver_slot is one pointer to set and the symbol to set it to.
struct driver_slot {
	const char *symbol;
	void **pointer;
};

// driver_slot_list is every pointer to set; *count receives how many.
const struct driver_slot *driver_slot_list(int *count);

#endif
