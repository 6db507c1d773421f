package kernels_test

import (
	"testing"

	"github.com/pathflow/pathflow/internal/kernelgen"
)

// TestPTXIsCurrent fails when a kernel source or header changed without
// `go generate ./kernels`: every PTX records the hash of the sources it was
// made from. It needs no nvcc.
func TestPTXIsCurrent(t *testing.T) {
	stale, err := kernelgen.Check(".", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(stale) > 0 {
		t.Fatalf("PTX out of date for %v: run go generate ./kernels", stale)
	}
}
