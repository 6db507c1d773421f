//go:build cuda

package gpu

import (
	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/gpu/device"
)

// A cuda build registers the GPU backend; programs link it with a blank
// import of this package.
func init() {
	backend.Register(backend.Factory{
		Name:      Name,
		Available: device.Available,
		Choose:    choose,
		Devices:   visibleDevices,
		Warm:      warm,
		Confine:   device.Confine,
		Open: func(o backend.Options) (backend.Backend, error) {
			return New(WithWorkers(o.Workers), WithDevices(o.Devices), WithMemoryLimit(o.MemoryLimit))
		},
	})
}
