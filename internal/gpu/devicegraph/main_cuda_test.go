//go:build cuda

package devicegraph

import (
	"fmt"
	"os"
	"testing"

	"github.com/pathflow/pathflow/internal/gpu/device"
)

// testDevice is device 0, opened once for the package's tests.
var testDevice *device.Device

func TestMain(m *testing.M) {
	if ok, reason := device.Available(); !ok {
		fmt.Println("skipping the GPU tests:", reason)
		os.Exit(0)
	}
	var err error
	if testDevice, err = device.Open(0); err != nil {
		fmt.Println("opening the GPU:", err)
		os.Exit(1)
	}
	code := m.Run()
	if err := testDevice.Close(); err != nil {
		fmt.Println("closing the device:", err)
		code = max(code, 1)
	}
	os.Exit(code)
}
