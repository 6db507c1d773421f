package compute

import (
	"errors"
	"fmt"
	"testing"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/internal/planner"
	"github.com/pathflow/pathflow/pipeline/stageerr"
)

// TestPlanErrorNamesTheKeyOrTheExit checks how the planner's refusals
// reach the user: the key to change for a request the backend lacks, the
// no-GPU exit for a missing GPU, a compute error for a failed Choose, and
// anything else as it came.
func TestPlanErrorNamesTheKeyOrTheExit(t *testing.T) {
	unsupported := fmt.Errorf("gpu: nope: %w", backend.ErrUnsupported)
	tooWide := fmt.Errorf("%w (cpu backend)", backend.ErrNeedsInt64)
	broken := errors.New("gpu: broken")
	for _, c := range []struct {
		name string
		in   error
		key  string // "" for no configuration error
		kind stageerr.Kind
		is   error
	}{
		{"variant", &planner.ChooseError{Backend: backend.GPU, Setting: planner.SettingVariant, Err: unsupported}, KeyVariant, stageerr.Config, backend.ErrUnsupported},
		{"algorithm", &planner.ChooseError{Backend: backend.GPU, Setting: planner.SettingAlgorithm, Err: unsupported}, KeyAlgorithm, stageerr.Config, backend.ErrUnsupported},
		{"failed", &planner.ChooseError{Backend: backend.GPU, Setting: planner.SettingNone, Err: broken}, "", stageerr.Compute, broken},
		{"no gpu", &planner.NoGPUError{Why: "no driver"}, "", stageerr.NoGPU, nil},
		{"too wide", tooWide, "", stageerr.Internal, backend.ErrNeedsInt64},
	} {
		err := planError(c.in)
		key := ""
		if ce := (*config.Error)(nil); errors.As(err, &ce) {
			key = ce.Key
		}
		if key != c.key {
			t.Errorf("%s: %v names key %q, want %q", c.name, err, key, c.key)
		}
		if got := stageerr.KindOf(err); got != c.kind {
			t.Errorf("%s: kind %v, want %v", c.name, got, c.kind)
		}
		if c.is != nil && !errors.Is(err, c.is) {
			t.Errorf("%s: %v does not wrap %v", c.name, err, c.is)
		}
		if err == nil || err.Error() == "" {
			t.Errorf("%s: no message", c.name)
		}
	}
	var noGPU *stageerr.NoGPUError
	if err := planError(&planner.NoGPUError{Why: "no driver"}); !errors.As(err, &noGPU) || noGPU.Why != "no driver" {
		t.Errorf("no gpu: %#v", err)
	}
}
