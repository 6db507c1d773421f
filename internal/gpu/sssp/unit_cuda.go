//go:build cuda

package sssp

import "github.com/pathflow/pathflow/internal/gpu/device"

// unit is one device searches run on: its staging and device, and how
// many host goroutines mend parent rows.
type unit struct {
	st      *device.Stager
	dev     *device.Device
	workers int
}

// newUnit is the unit of gpu; workers below 1 count as 1.
func newUnit(gpu *device.Stager, workers int) *unit {
	return &unit{st: gpu, dev: gpu.Device(), workers: max(workers, 1)}
}
