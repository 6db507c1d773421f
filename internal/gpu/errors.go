package gpu

import (
	"errors"

	"github.com/pathflow/pathflow/internal/gpu/device"
)

// ErrNoCUDA is what the GPU tools report in builds without the cuda tag,
// which register no GPU backend.
var ErrNoCUDA = errors.New("gpu: built without CUDA support (rebuild with -tags cuda)")

// Name is the name the GPU backend registers under.
const Name = device.Name
