package planner

import (
	"errors"
	"fmt"
	"testing"

	"github.com/pathflow/pathflow/internal/backend"
)

// fakeBackends are a CPU that runs everything and a GPU whose
// availability and Choose a case sets; gpu nil: no GPU registered.
func fakeBackends(gpu *backend.Factory) Backends {
	cpu := backend.Factory{Name: backend.CPU, Available: func() (bool, string) { return true, "the CPU" },
		Choose: func(p backend.Problem) (backend.Choice, error) {
			return backend.Choice{Algorithm: backend.Algorithm{Name: backend.AlgorithmJohnson}, Int64: true}, nil
		}}
	return func(name string) (backend.Factory, bool) {
		switch {
		case name == backend.CPU:
			return cpu, true
		case name == backend.GPU && gpu != nil:
			return *gpu, true
		}
		return backend.Factory{}, false
	}
}

func fakeGPU(available bool, err error) *backend.Factory {
	return &backend.Factory{Name: backend.GPU,
		Available: func() (bool, string) {
			if available {
				return true, "fake device"
			}
			return false, "no driver"
		},
		Choose: func(p backend.Problem) (backend.Choice, error) {
			return backend.Choice{Algorithm: backend.Algorithm{Name: backend.AlgorithmSSSP, Variant: backend.VariantNearFar}}, err
		}}
}

// TestChooseBackend pins the backend each compute.backend gets in every
// state of the GPU, the reason and the warnings.
func TestChooseBackend(t *testing.T) {
	unsupported := fmt.Errorf("gpu: johnson: %w", backend.ErrUnsupported)
	tooWide := fmt.Errorf("%w: too wide", backend.ErrNeedsInt64)
	for _, c := range []struct {
		name, requested string
		gpu             *backend.Factory
		variant         string
		want, why       string
		warned          bool
		err             string
	}{
		{"cpu", backend.CPU, fakeGPU(true, nil), "", backend.CPU, "requested", false, ""},
		{"auto, gpu", Auto, fakeGPU(true, nil), "", backend.GPU, "auto: GPU fake device", false, ""},
		{"gpu", backend.GPU, fakeGPU(true, nil), "", backend.GPU, "GPU fake device", false, ""},
		{"auto, no gpu built", Auto, nil, "", backend.CPU, "auto: no GPU (this build has no GPU backend (build with -tags cuda))", false, ""},
		{"auto, gpu unavailable", Auto, fakeGPU(false, nil), "", backend.CPU, "auto: no GPU (no driver)", false, ""},
		{"gpu, unavailable", backend.GPU, fakeGPU(false, nil), "", "", "", false, "no driver"},
		{"gpu, none built", backend.GPU, nil, "", "", "", false, "this build has no GPU backend (build with -tags cuda)"},
		{"auto, gpu lacks it", Auto, fakeGPU(true, unsupported), "", backend.CPU, "auto: the GPU does not implement this request (gpu: johnson: not supported by this backend)", true, ""},
		{"gpu, gpu lacks it", backend.GPU, fakeGPU(true, unsupported), "", "", "", false, "gpu: johnson: not supported by this backend"},
		{"auto, too wide", Auto, fakeGPU(true, tooWide), "", backend.CPU, "the GPU's int32 distances cannot hold this graph's; the CPU's int64 ones can", true, ""},
		{"gpu, too wide", backend.GPU, fakeGPU(true, tooWide), "", backend.CPU, "the GPU's int32 distances cannot hold this graph's; the CPU's int64 ones can", true, ""},
	} {
		p := backend.Problem{N: 10, M: 20, MinWeight: 1, MaxWeight: 5, Algorithm: backend.Algorithm{Name: backend.AlgorithmAuto, Variant: c.variant}}
		plan, warnings, err := ChooseBackend(c.requested, p, fakeBackends(c.gpu))
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("%s: error %v, want %q", c.name, err, c.err)
			}
			continue
		}
		if err != nil || plan.Factory.Name != c.want || plan.Why != c.why || (len(warnings) > 0) != c.warned {
			t.Errorf("%s: %s %q, warnings %v, %v", c.name, plan.Factory.Name, plan.Why, warnings, err)
		}
	}
}

// TestChooseErrorNamesTheKey checks that a refusal names compute.variant
// when a variant was given, compute.algorithm otherwise, and no key for a
// failure, and that too wide distances name the backend.
func TestChooseErrorNamesTheKey(t *testing.T) {
	for _, c := range []struct {
		err     error
		variant string
		want    Setting
	}{
		{fmt.Errorf("x: %w", backend.ErrUnsupported), "", SettingAlgorithm},
		{fmt.Errorf("x: %w", backend.ErrUnsupported), "fast", SettingVariant},
		{errors.New("broken"), "", SettingNone},
	} {
		p := backend.Problem{Algorithm: backend.Algorithm{Name: backend.AlgorithmDijkstra, Variant: c.variant}}
		_, _, err := ChooseBackend(backend.GPU, p, fakeBackends(fakeGPU(true, c.err)))
		var ce *ChooseError
		if !errors.As(err, &ce) || ce.Setting != c.want || !errors.Is(err, c.err) {
			t.Errorf("%v with variant %q: %v", c.err, c.variant, err)
		}
	}
	p := backend.Problem{Algorithm: backend.Algorithm{Name: backend.AlgorithmDijkstra}}
	cpuTooWide := func(name string) (backend.Factory, bool) {
		return backend.Factory{Name: backend.CPU, Choose: func(backend.Problem) (backend.Choice, error) {
			return backend.Choice{}, backend.ErrNeedsInt64
		}}, name == backend.CPU
	}
	if _, _, err := ChooseBackend(backend.CPU, p, cpuTooWide); err == nil || err.Error() != "distances might not fit in int32 (cpu backend)" {
		t.Errorf("too wide on the CPU: %v", err)
	}
}

func TestFallBackOnOpenFailure(t *testing.T) {
	if !FallBackOnOpenFailure(Auto, backend.GPU) || FallBackOnOpenFailure(Auto, backend.CPU) || FallBackOnOpenFailure(backend.GPU, backend.GPU) {
		t.Error("only auto with a planned GPU falls back")
	}
	err := errors.New("no context")
	if got := OpenFailedWhy(err); got != "auto: the GPU failed to start (no context)" {
		t.Errorf("OpenFailedWhy: %q", got)
	}
	if w := OpenFailedWarning(err); w.Msg != "using the CPU backend" || w.Why != "the GPU failed to start: no context" {
		t.Errorf("OpenFailedWarning: %+v", w)
	}
}
