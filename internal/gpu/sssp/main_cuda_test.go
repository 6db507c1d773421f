//go:build cuda

package sssp_test

import (
	"testing"

	"github.com/pathflow/pathflow/internal/gpu/backendtest"
)

func TestMain(m *testing.M) { backendtest.Main(m) }
