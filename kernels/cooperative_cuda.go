//go:build cuda

package kernels

import (
	"fmt"
	"unsafe"
)

// CooperativeFunction is a kernel loaded into a context for cooperative
// launches (cuLaunchCooperativeKernel), which start a grid only when every
// one of its blocks can be resident at once, so that blocks may wait for
// each other at grid-wide barriers. gorgonia.org/cu does not wrap that
// call: internal/gpu/device loads such kernels through the driver
// (device.LoadCooperative) and implements this interface. The generated
// wrapper of a kernel marked //kernelgen:cooperative takes one.
type CooperativeFunction interface {
	// Name is the kernel's C name.
	Name() string
	// LaunchCooperative launches the function with cfg, whose shapes have
	// no zero components; args point at the kernel's parameters, 64 bits
	// each.
	LaunchCooperative(cfg Config, args []unsafe.Pointer) error
}

// launchCooperative launches k, loaded as fn, with cfg.
func launchCooperative(k *Kernel, fn CooperativeFunction, cfg Config, args []unsafe.Pointer) error {
	if fn.Name() != k.name {
		return fmt.Errorf("kernels: %s launched through %s, a function loaded from another kernel", k.name, fn.Name())
	}
	cfg.Grid, cfg.Block = cfg.Grid.norm(), cfg.Block.norm()
	return fn.LaunchCooperative(cfg, args)
}
