// pathflow: the run-time loader of the CUDA driver (lazy.c) and the
// trampolines generated from cuda.h (lazy_driver.c). See NOTICE.

#ifndef CU_LAZY_H
#define CU_LAZY_H

#include <cuda.h>

// cu_lazy_resolve loads (and initialises) libcuda.so.1 on first use and stores in *slot the
// address of the driver function named name, unless *slot already holds
// it; *fn receives the address. CUDA_ERROR_NOT_INITIALIZED: the library
// could not be loaded (cu_lazy_load_error says why); CUDA_ERROR_NOT_FOUND:
// the loaded driver lacks the function.
CUresult cu_lazy_resolve(void **slot, const char *name, void **fn);

// cu_lazy_load_error is dlopen's message when libcuda.so.1 could not be
// loaded, NULL when it was.
const char *cu_lazy_load_error(void);

// cu_lazy_symbol is the address of the driver function named name, NULL
// when the library or the function is missing.
void *cu_lazy_symbol(const char *name);

// CU_LAZY_NAME is the symbol cuda.h maps a driver function to, as a
// string: CU_LAZY_NAME(cuMemAlloc) is "cuMemAlloc_v2".
#define CU_LAZY_NAME(f) CU_LAZY_STRING(f)
#define CU_LAZY_STRING(f) #f

// CU_LAZY_RESOLVE sets fn to the driver function f, or returns the error
// from the enclosing trampoline.
#define CU_LAZY_RESOLVE(slot, f, fn)                                      \
	do {                                                              \
		void *p_;                                                 \
		CUresult r_ = cu_lazy_resolve(&(slot), CU_LAZY_NAME(f), &p_); \
		if (r_ != CUDA_SUCCESS) return r_;                        \
		fn = (__typeof__(fn))p_;                                  \
	} while (0)

#endif
