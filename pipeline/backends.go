package pipeline

import (
	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/internal/cpu"
	"github.com/pathflow/pathflow/internal/gpu"
)

// OpenBackend opens the backend compute.backend names and says why it was
// chosen. "auto" takes the GPU when the binary was built with -tags cuda
// and a device answers, else the CPU; "gpu" without one is an error.
func OpenBackend(name string, workers int) (backend.Backend, string, error) {
	switch name {
	case BackendCPU:
		return cpu.New(workers), "requested", nil
	case BackendGPU:
		if ok, why := gpu.Available(); !ok {
			return nil, "", config.Errorf(KeyBackend, "gpu is not available: %s", why)
		}
		b, err := gpu.New()
		if err != nil {
			return nil, "", &ComputeError{err}
		}
		return b, "requested", nil
	default:
		ok, why := gpu.Available()
		if !ok {
			return cpu.New(workers), "auto: no GPU (" + why + ")", nil
		}
		b, err := gpu.New()
		if err != nil {
			return cpu.New(workers), "auto: GPU failed to start (" + err.Error() + ")", nil
		}
		return b, "auto: " + why, nil
	}
}
