//go:build cuda

package allpairs_test

import (
	"testing"

	"github.com/pathflow/pathflow/internal/gpu/backendtest"
)

func TestMain(m *testing.M) { backendtest.Main(m) }
