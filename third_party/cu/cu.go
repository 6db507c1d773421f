// Package cu provides an idiomatic interface to the CUDA Driver API.
package cu // import "gorgonia.org/cu"

// This file implements CUDA driver context management

//#include <cuda.h>
import "C"

const initHtml = "https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__INITIALIZE.html"

// pathflow: the driver is initialised (cuInit) when it is first used, by
// InitError or any driver call (lazy.go, lazy.c), rather than here when
// the program starts: a run that never touches the GPU, or a process that
// only supervises one, does not pay for it, and a failure is recorded for
// InitError instead of ending the program, so that a binary built with cu
// starts on hosts without a driver or a device.

// Version returns the version of the CUDA driver
func Version() int {
	var v C.int
	if err := result(C.cuDriverGetVersion(&v)); err != nil {
		return -1
	}
	return int(v)
}
