//go:build cuda

package gpu

/*
#cgo LDFLAGS: -lcuda
#include <cuda.h>
#include <stdlib.h>

static CUresult launch_cooperative(CUfunction f, unsigned gx, unsigned gy, unsigned bx, void **params) {
	return cuLaunchCooperativeKernel(f, gx, gy, 1, bx, 1, 1, 0, 0, params);
}
*/
import "C"

import (
	"fmt"
	"unsafe"

	"gorgonia.org/cu"
)

// A driver call that gorgonia.org/cu does not wrap: cooperative launches,
// which guarantee that every block of a grid is resident at once (the
// near-far search's blocks wait for each other). See pinned.go for the
// others.

// launchCooperative launches fn on a gx x gy grid of bx-thread blocks on the
// default stream, every argument passed as 64 bits. It fails (with
// CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE) rather than start a grid whose
// blocks cannot all be resident.
func launchCooperative(fn cu.Function, gx, gy, bx int, args ...uint64) error {
	// cu.Function holds the driver's CUfunction as its only field.
	f := *(*C.CUfunction)(unsafe.Pointer(&fn))
	// The parameter array and the values it points to live in C memory:
	// cgo forbids passing Go pointers to Go pointers.
	values := (*[1 << 20]C.ulonglong)(C.malloc(C.size_t(8 * len(args))))
	params := (*[1 << 20]unsafe.Pointer)(C.malloc(C.size_t(8 * len(args))))
	defer C.free(unsafe.Pointer(values))
	defer C.free(unsafe.Pointer(params))
	for i, a := range args {
		values[i] = C.ulonglong(a)
		params[i] = unsafe.Pointer(&values[i])
	}
	if r := C.launch_cooperative(f, C.uint(gx), C.uint(gy), C.uint(bx), &params[0]); r != C.CUDA_SUCCESS {
		return driverError(fmt.Sprintf("cooperative launch of %d x %d blocks of %d threads", gx, gy, bx), r)
	}
	return nil
}
