//go:build cuda

package gpu

import (
	"errors"
	"fmt"

	"gorgonia.org/cu"

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
	count, err := cu.NumDevices()
	if err != nil {
		return nil, fmt.Errorf("gpu: counting devices: %w", err)
	}
	infos := make([]backend.DeviceInfo, count)
	for i := range infos {
		dev, err := cu.GetDevice(i)
		if err != nil {
			return nil, fmt.Errorf("gpu: device %d: %w", i, err)
		}
		info := backend.DeviceInfo{Ordinal: i}
		if info.Name, err = dev.Name(); err != nil {
			return nil, fmt.Errorf("gpu: device %d name: %w", i, err)
		}
		if info.Memory, err = dev.TotalMem(); err != nil {
			return nil, fmt.Errorf("gpu: device %d memory: %w", i, err)
		}
		infos[i] = info
	}
	return infos, nil
}
