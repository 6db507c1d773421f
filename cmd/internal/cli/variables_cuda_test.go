//go:build cuda

package cli

import (
	"slices"
	"testing"

	"github.com/pathflow/pathflow/internal/gpu/device"
)

// TestOtherVariablesNameTheGPUSwitch keeps OtherVariables in step with the
// GPU backend's variable, which only cuda builds declare.
func TestOtherVariablesNameTheGPUSwitch(t *testing.T) {
	if !slices.Contains(OtherVariables, device.SyncEnv) {
		t.Errorf("OtherVariables %v lacks %s", OtherVariables, device.SyncEnv)
	}
}
