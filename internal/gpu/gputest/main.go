package gputest

import (
	"fmt"
	"io"
	"os"
	"testing"
)

// MainOnDevice is the TestMain of a package whose tests share one device:
// it skips them all (exit 0) where available reports no GPU, opens device
// 0 with open into *dev for the whole run, and closes it afterwards, a
// failure to close failing the run. Its types are parameters so that the
// device package itself can use it without an import cycle.
func MainOnDevice[D io.Closer](m *testing.M, available func() (bool, string), open func(ordinal int) (D, error), dev *D) {
	if ok, reason := available(); !ok {
		fmt.Println("skipping the GPU tests:", reason)
		os.Exit(0)
	}
	var err error
	if *dev, err = open(0); err != nil {
		fmt.Println("opening the GPU:", err)
		os.Exit(1)
	}
	code := m.Run()
	if err := (*dev).Close(); err != nil {
		fmt.Println("closing the device:", err)
		code = max(code, 1)
	}
	os.Exit(code)
}
