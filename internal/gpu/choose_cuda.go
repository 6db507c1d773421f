//go:build cuda

package gpu

import (
	"errors"
	"fmt"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/gpu/device"
)

// visibleDevices is the GPU Factory's Devices: every device the driver
// shows (CUDA_VISIBLE_DEVICES applies), described from the driver's
// device queries alone. No context is created, so the planner can weigh
// a job against opening them before any is opened.
func visibleDevices() ([]backend.DeviceInfo, error) {
	if ok, why := device.Available(); !ok {
		return nil, errors.New(why)
	}
	ordinals, err := device.ResolveDevices(nil)
	if err != nil {
		return nil, err
	}
	infos := make([]backend.DeviceInfo, len(ordinals))
	for i, o := range ordinals {
		dev, err := device.Lookup(o)
		if err != nil {
			return nil, err
		}
		info := backend.DeviceInfo{Ordinal: o}
		if info.Name, err = dev.Name(); err != nil {
			return nil, fmt.Errorf("gpu: device %d name: %w", o, err)
		}
		if info.Memory, err = dev.TotalMem(); err != nil {
			return nil, fmt.Errorf("gpu: device %d memory: %w", o, err)
		}
		infos[i] = info
	}
	return infos, nil
}
