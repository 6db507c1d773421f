//go:build cuda

package device

import (
	"testing"

	"github.com/pathflow/pathflow/internal/gpu/gputest"
)

// testDevice is device 0, opened once for the package's tests.
var testDevice *Device

func TestMain(m *testing.M) { gputest.MainOnDevice(m, Available, Open, &testDevice) }

// poison is written over buffers before copies, so that a cell no copy
// writes cannot pass for a result.
const poison int32 = 0x2EADBEEF
