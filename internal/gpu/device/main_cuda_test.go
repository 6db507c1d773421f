//go:build cuda

package device

import (
	"fmt"
	"os"
	"testing"
)

// testDevice is device 0, opened once for the package's tests.
var testDevice *Device

func TestMain(m *testing.M) {
	if ok, reason := Available(); !ok {
		fmt.Println("skipping the GPU tests:", reason)
		os.Exit(0)
	}
	var err error
	if testDevice, err = Open(0); err != nil {
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

// poison is written over buffers before copies, so that a cell no copy
// writes cannot pass for a result.
const poison int32 = 0x2EADBEEF
