//go:build !cuda

package gpu

import (
	"strings"
	"testing"

	"github.com/pathflow/pathflow/internal/backend"
)

func TestWithoutCUDANothingRegisters(t *testing.T) {
	if _, ok := backend.Lookup("gpu"); ok {
		t.Fatal(`a build without the cuda tag registered "gpu"`)
	}
	if !strings.Contains(ErrNoCUDA.Error(), "-tags cuda") {
		t.Fatalf("ErrNoCUDA = %q does not say how to build with CUDA", ErrNoCUDA)
	}
}
