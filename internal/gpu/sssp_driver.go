//go:build cuda

package gpu

/*
#cgo LDFLAGS: -lcuda
#include <cuda.h>
#include <stdlib.h>

static CUresult launch_cooperative(CUfunction f, unsigned gx, unsigned gy, unsigned bx, void **params) {
	return cuLaunchCooperativeKernel(f, gx, gy, 1, bx, 1, 1, 0, 0, params);
}

static const char *error_name(CUresult r) {
	const char *s = 0;
	if (cuGetErrorName(r, &s) != CUDA_SUCCESS || s == 0) return "unknown CUDA error";
	return s;
}
*/
import "C"

import (
	"fmt"
	"unsafe"

	"gorgonia.org/cu"
)

// Driver calls that gorgonia.org/cu does not wrap: cooperative launches,
// which guarantee that every block of a grid is resident at once (the
// near-far search's blocks wait for each other), and pinned host memory,
// which the results of a batch are copied into at full bus speed.

func driverError(what string, r C.CUresult) error {
	return fmt.Errorf("gpu: %s: %s", what, C.GoString(C.error_name(r)))
}

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

// pinnedInt32 is an int32 slice in page-locked host memory, allocated in
// the current context; free it with free on the device's thread.
type pinnedInt32 struct {
	ptr unsafe.Pointer
	s   []int32
}

// allocPinnedInt32 allocates n int32 of page-locked host memory.
func allocPinnedInt32(n int) (*pinnedInt32, error) {
	if n == 0 {
		return &pinnedInt32{}, nil
	}
	var p unsafe.Pointer
	if r := C.cuMemAllocHost(&p, C.size_t(4*n)); r != C.CUDA_SUCCESS {
		return nil, driverError(fmt.Sprintf("allocating %s of pinned host memory", formatBytes(int64(4*n))), r)
	}
	return &pinnedInt32{ptr: p, s: unsafe.Slice((*int32)(p), n)}, nil
}

func (p *pinnedInt32) free() error {
	if p == nil || p.ptr == nil {
		return nil
	}
	r := C.cuMemFreeHost(p.ptr)
	p.ptr, p.s = nil, nil
	if r != C.CUDA_SUCCESS {
		return driverError("freeing pinned host memory", r)
	}
	return nil
}
