//go:build cuda

package gpu_test

import (
	"testing"

	"github.com/pathflow/pathflow/internal/gpu/backendtest"
)

func TestMain(m *testing.M) { backendtest.Main(m) }
