//go:build cuda

package cli

import (
	"slices"
	"testing"

	"github.com/pathflow/pathflow/internal/gpu"
)

// TestOtherVariablesNameTheGPUSwitch keeps OtherVariables in step with the
// GPU backend's variable, which only cuda builds declare.
func TestOtherVariablesNameTheGPUSwitch(t *testing.T) {
	if !slices.Contains(OtherVariables, gpu.SyncEnv) {
		t.Errorf("OtherVariables %v lacks %s", OtherVariables, gpu.SyncEnv)
	}
}
