//go:build cuda

package devicegraph

import (
	"testing"

	"github.com/pathflow/pathflow/internal/gpu/device"
	"github.com/pathflow/pathflow/internal/gpu/gputest"
)

// testDevice is device 0, opened once for the package's tests.
var testDevice *device.Device

func TestMain(m *testing.M) { gputest.MainOnDevice(m, device.Available, device.Open, &testDevice) }
