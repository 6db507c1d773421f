package compute

import (
	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/config"
)

// Device configuration keys: which GPUs a run uses and how much of their
// memory it may plan on. Neither changes a byte of the results (several
// GPUs and out-of-core all-pairs give the one-GPU bytes), so both are
// run-only keys, outside the settings checksum.
const (
	KeyDevices        = "compute.devices"
	KeyGPUMemoryLimit = "gpu.memory_limit"
)

// DevicesAll is compute.devices' value for every visible device
// (CUDA_VISIBLE_DEVICES applies as for any CUDA program).
const DevicesAll = "all"

// deviceKeys declares the device keys, appended to ComputeKeys.
func deviceKeys() []config.Key {
	return []config.Key{
		{Name: KeyDevices, Default: DevicesAll, Flag: "devices", Usage: "GPUs to use: all (every visible one) or device ordinals, e.g. 0,1; one listed twice gets two contexts on that GPU"},
		{Name: KeyGPUMemoryLimit, Default: "0", Flag: "gpu-memory-limit", Usage: "device memory an all-pairs run may plan to use per GPU: bytes, or with a unit (512MiB, 10GB); 0 for the device's own"},
	}
}

// DeviceSettings are the validated device keys.
type DeviceSettings struct {
	// Devices are the GPU ordinals compute.devices names, in order; nil
	// for every visible device.
	Devices []int
	// MemoryLimit is gpu.memory_limit in bytes; 0 for the device's own.
	MemoryLimit int64
}

// readDeviceSettings reads and validates the device keys.
func readDeviceSettings(vs *config.Values) DeviceSettings {
	return DeviceSettings{
		Devices:     vs.IndexList(KeyDevices, DevicesAll),
		MemoryLimit: vs.ByteSize(KeyGPUMemoryLimit),
	}
}

// backendOptions are the options a backend is opened with for a run of
// workers host goroutines on these devices.
func (d DeviceSettings) backendOptions(workers int) backend.Options {
	return backend.Options{Workers: workers, Devices: d.Devices, MemoryLimit: d.MemoryLimit}
}
