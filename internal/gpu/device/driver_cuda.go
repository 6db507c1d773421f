//go:build cuda

package device

// #include "driver.h"
import "C"

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"unsafe"

	"gorgonia.org/cu"
)

// The CUDA driver is loaded at run time by pathflow's copy of
// gorgonia.org/cu (third_party/cu), so a cuda build starts on hosts
// without it; this file asks whether it answered and resolves the driver
// functions internal/gpu calls itself (driver.h).

// ErrNoDriver is wrapped by the error of a host without the NVIDIA driver
// library; ErrNoDevice by that of a driver that sees no device.
var (
	ErrNoDriver = errors.New("gpu: NVIDIA driver library not found")
	ErrNoDevice = errors.New("gpu: no CUDA device")
)

var (
	driverOnce sync.Once
	driverErr  error
)

// driverReady is nil when the driver was loaded, initialised and has every
// function internal/gpu calls; otherwise it says what is missing, wrapping
// ErrNoDriver or ErrNoDevice where one of them is the cause.
func driverReady() error {
	driverOnce.Do(func() {
		markDriverStarted()
		driverErr = resolveDriver()
	})
	return driverErr
}

func resolveDriver() error {
	err := cu.InitError()
	var load *cu.DriverLoadError
	switch {
	case errors.As(err, &load):
		return fmt.Errorf("%w: %s", ErrNoDriver, load.Reason)
	case errors.Is(err, cu.NoDevice) && confinedOrdinals() != "":
		return fmt.Errorf("%w: device %s does not exist (the driver shows none of the devices the run names%s)", ErrNoDevice, confinedOrdinals(), visibleDevices())
	case errors.Is(err, cu.NoDevice):
		return fmt.Errorf("%w: the NVIDIA driver library (%s) loaded but reports none%s", ErrNoDevice, cu.DriverLibrary, visibleDevices())
	case err != nil:
		return fmt.Errorf("gpu: the NVIDIA driver failed to initialise: %w", err)
	}
	var count C.int
	first := C.driver_slot_list(&count)
	for _, s := range unsafe.Slice(first, int(count)) {
		name := C.GoString(s.symbol)
		p := cu.DriverSymbol(name)
		if p == nil {
			return fmt.Errorf("gpu: the NVIDIA driver has no %s (driver too old?)", name)
		}
		*s.pointer = p
	}
	return nil
}

// visibleDevices names CUDA_VISIBLE_DEVICES when it is set, since it
// hides devices from the driver.
func visibleDevices() string {
	if v, ok := os.LookupEnv("CUDA_VISIBLE_DEVICES"); ok {
		return fmt.Sprintf(" (CUDA_VISIBLE_DEVICES=%q)", v)
	}
	return ""
}
