package cu

// pathflow: the driver is loaded at run time (lazy.c, lazy_driver.c), and a
// failed cuInit is recorded here instead of ending the program. See NOTICE.

// #cgo linux LDFLAGS: -ldl
// #include <stdlib.h>
// #include "lazy.h"
import "C"

import (
	"errors"
	"fmt"
	"sync"
	"unsafe"
)

// DriverLibrary is the shared library the driver is loaded from, unless
// the environment variable CU_DRIVER_LIBRARY names another file.
const DriverLibrary = "libcuda.so.1"

// ErrNoDriver is wrapped by InitError when the driver library could not be
// loaded: no NVIDIA driver is installed, or it is not on the loader's path.
var ErrNoDriver = errors.New("cu: CUDA driver library not found")

// DriverLoadError is InitError's answer when the driver library could not
// be loaded; it wraps ErrNoDriver.
type DriverLoadError struct {
	// Reason is dlopen's message.
	Reason string
}

func (e *DriverLoadError) Error() string { return ErrNoDriver.Error() + ": " + e.Reason }
func (e *DriverLoadError) Unwrap() error { return ErrNoDriver }

var (
	initOnce sync.Once
	initErr  error
)

// driverInitError turns cuInit's result into InitError's answer: a missing
// library is reported with dlopen's message.
func driverInitError(err error) error {
	if msg := C.cu_lazy_load_error(); msg != nil {
		return &DriverLoadError{Reason: C.GoString(msg)}
	}
	if err != nil {
		return fmt.Errorf("cu: cuInit failed: %w (see %s)", err, initHtml)
	}
	return nil
}

// InitError is nil when the driver was loaded and initialised, which it
// is on the first call of InitError or of any driver function, and says
// why not otherwise: a *DriverLoadError
// (wrapping ErrNoDriver) when libcuda.so.1 could not be loaded, or one wrapping
// cuInit's result (NoDevice when no device is visible, for example with
// CUDA_VISIBLE_DEVICES empty). Every other call fails while it is not nil.
func InitError() error {
	initOnce.Do(func() { initErr = driverInitError(result(C.cuInit(C.uint(0)))) })
	return initErr
}

// DriverSymbol is the address of the driver function named name (the
// versioned name cuda.h maps to, such as "cuMemcpyDtoHAsync_v2"), resolved
// in the library the package loaded; nil when the library or the function
// is missing. It serves callers' own cgo code, which must not link libcuda
// either.
func DriverSymbol(name string) unsafe.Pointer {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	return C.cu_lazy_symbol(cname)
}
