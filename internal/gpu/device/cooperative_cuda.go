//go:build cuda

package device

/*
#include <stdlib.h>
#include "driver.h"

static CUresult launch_cooperative(CUfunction f, unsigned gx, unsigned gy, unsigned gz,
		unsigned bx, unsigned by, unsigned bz, unsigned shared, void **params) {
	return driver_cuLaunchCooperativeKernel(f, gx, gy, gz, bx, by, bz, shared, 0, params);
}

static CUresult module_load_data(CUmodule *m, const void *image) { return driver_cuModuleLoadData(m, image); }
static CUresult module_get_function(CUfunction *f, CUmodule m, const char *name) { return driver_cuModuleGetFunction(f, m, name); }
static CUresult module_unload(CUmodule m) { return driver_cuModuleUnload(m); }
static CUresult max_active_blocks(int *blocks, CUfunction f, int block_size) {
	return driver_cuOccupancyMaxActiveBlocksPerMultiprocessor(blocks, f, block_size, 0);
}
*/
import "C"

import (
	"fmt"
	"unsafe"

	"gorgonia.org/cu"

	"github.com/pathflow/pathflow/kernels"
)

// A driver call that gorgonia.org/cu does not wrap: cooperative launches,
// which guarantee that every block of a grid is resident at once (the
// near-far search's blocks wait for each other). The kernel is loaded
// here, through the driver API, so that its function handle is ours rather
// than read out of gorgonia.org/cu's private types. See pinned_cuda.go for the
// other driver calls.

// CooperativeKernel is a kernel loaded into the current context for
// cooperative launches. Unload it on the same context's thread.
type CooperativeKernel struct {
	name string
	mod  C.CUmodule
	fn   C.CUfunction
}

// LoadCooperative loads k's PTX into the context current on the calling
// thread.
func LoadCooperative(k *kernels.Kernel) (*CooperativeKernel, error) {
	ptx := C.CString(k.PTX())
	defer C.free(unsafe.Pointer(ptx))
	name := C.CString(k.Name())
	defer C.free(unsafe.Pointer(name))
	ck := &CooperativeKernel{name: k.Name()}
	if r := C.module_load_data(&ck.mod, unsafe.Pointer(ptx)); r != C.CUDA_SUCCESS {
		return nil, driverError("loading "+k.Name(), r)
	}
	if r := C.module_get_function(&ck.fn, ck.mod, name); r != C.CUDA_SUCCESS {
		return nil, driverError("finding "+k.Name()+" in its module", r)
	}
	return ck, nil
}

// MaxActiveBlocksPerSM is how many blocks of blockSize threads can be
// resident on one multiprocessor at once.
func (k *CooperativeKernel) MaxActiveBlocksPerSM(blockSize int) (int, error) {
	var blocks C.int
	if r := C.max_active_blocks(&blocks, k.fn, C.int(blockSize)); r != C.CUDA_SUCCESS {
		return 0, driverError("occupancy of "+k.name, r)
	}
	return int(blocks), nil
}

// Unload releases the module.
func (k *CooperativeKernel) Unload() error {
	if r := C.module_unload(k.mod); r != C.CUDA_SUCCESS {
		return driverError("unloading "+k.name, r)
	}
	return nil
}

// Name is the kernel's C name.
func (k *CooperativeKernel) Name() string { return k.name }

// LaunchCooperative launches the kernel with cfg on the default stream;
// args point at its parameters, 64 bits each. It fails (with
// CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE) rather than start a grid whose
// blocks cannot all be resident. The typed wrappers of package kernels
// call it (kernels.CooperativeFunction).
func (k *CooperativeKernel) LaunchCooperative(cfg kernels.Config, args []unsafe.Pointer) error {
	if cfg.Stream != (cu.Stream{}) {
		return fmt.Errorf("gpu: cooperative launch of %s: only the default stream is supported", k.name)
	}
	// The parameter array and the values it points to live in C memory:
	// cgo forbids passing Go pointers to Go pointers.
	values := (*[1 << 20]C.ulonglong)(C.malloc(C.size_t(8 * len(args))))
	params := (*[1 << 20]unsafe.Pointer)(C.malloc(C.size_t(8 * len(args))))
	defer C.free(unsafe.Pointer(values))
	defer C.free(unsafe.Pointer(params))
	for i, a := range args {
		values[i] = *(*C.ulonglong)(a)
		params[i] = unsafe.Pointer(&values[i])
	}
	g, b := cfg.Grid, cfg.Block
	if r := C.launch_cooperative(k.fn, C.uint(g.X), C.uint(g.Y), C.uint(g.Z), C.uint(b.X), C.uint(b.Y), C.uint(b.Z),
		C.uint(cfg.SharedMem), &params[0]); r != C.CUDA_SUCCESS {
		return driverError(fmt.Sprintf("cooperative launch of %s on %d x %d blocks of %d threads", k.name, g.X, g.Y, b.X), r)
	}
	return nil
}
