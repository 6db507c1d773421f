package planner

import (
	"errors"
	"fmt"

	"github.com/pathflow/pathflow/internal/backend"
)

// Requested backends (compute.backend): backend.CPU, backend.GPU, or Auto.
const Auto = backend.AlgorithmAuto

// Plan is the backend a run will use and what it will run there.
type Plan struct {
	Factory backend.Factory
	Choice  backend.Choice
	// Why says how the backend was picked (for the log and the manifest).
	Why string
}

// Warning is something the caller logs as a warning under Msg, with Why
// as its "why" attribute (an error or a string, kept as given).
type Warning struct {
	Msg string
	Why any
}

// Setting names the compute key a refused request should change.
type Setting int

const (
	// SettingNone: not a configuration problem (a failed Choose).
	SettingNone Setting = iota
	// SettingAlgorithm: compute.algorithm names what the backend lacks.
	SettingAlgorithm
	// SettingVariant: compute.variant names what the backend lacks.
	SettingVariant
)

// ChooseError is a backend's Choose refusing the problem: Setting says
// which key to change, SettingNone for a failure that is no configuration
// problem. A refusal for distances too wide for the backend's arithmetic
// (backend.ErrNeedsInt64) is not a ChooseError: it is returned as the
// backend's error with the backend's name appended.
type ChooseError struct {
	Backend string
	Setting Setting
	Err     error
}

// Error is the backend's error.
func (e *ChooseError) Error() string { return e.Err.Error() }

// Unwrap returns the backend's error.
func (e *ChooseError) Unwrap() error { return e.Err }

// NoGPUError says why compute.backend gpu cannot run: the build has no GPU
// backend, or the one it has reports itself unavailable.
type NoGPUError struct{ Why string }

// Error is Why.
func (e *NoGPUError) Error() string { return e.Why }

// Backends is how the planner finds the registered backends
// (backend.Lookup in a run; fakes in tests).
type Backends func(name string) (backend.Factory, bool)

// ChooseBackend picks the backend requested names (Auto, backend.CPU or
// backend.GPU) and asks it what it would run for p:
//
//   - cpu: the CPU;
//   - auto: the GPU when backends has one, it is available and it can
//     compute p exactly; else the CPU, saying why. What the GPU does not
//     implement (backend.ErrUnsupported) runs on the CPU, with a warning;
//   - gpu: the GPU, or a *NoGPUError saying what is missing;
//   - with either, a GPU whose int32 arithmetic is too narrow for the
//     graph (backend.ErrNeedsInt64) gives way to the CPU, with a warning.
//
// Warnings come back even with an error, in the order they arose.
// Choose's refusals come back as *ChooseError (see there).
func ChooseBackend(requested string, p backend.Problem, backends Backends) (Plan, []Warning, error) {
	cpu, ok := backends(backend.CPU)
	if !ok {
		// A build without internal/cpu: the message reaches the user
		// as it stands, under the pipeline's prefix.
		return Plan{}, nil, errors.New("pipeline: no CPU backend registered")
	}
	if requested == backend.CPU {
		plan, err := choose(cpu, p, "requested")
		return plan, nil, err
	}
	gpu, registered := backends(backend.GPU)
	why := "this build has no GPU backend (build with -tags cuda)"
	if registered {
		var ok bool
		if ok, why = gpu.Available(); ok {
			plan, err := choose(gpu, p, "GPU "+why)
			// auto runs on the CPU what only the CPU implements (johnson,
			// its variants).
			if requested == Auto && errors.Is(err, backend.ErrUnsupported) {
				cause := errors.Unwrap(err) // the backend's own error
				warnings := []Warning{{Msg: "using the CPU backend", Why: cause}}
				plan, err := choose(cpu, p, fmt.Sprintf("auto: the GPU does not implement this request (%v)", cause))
				return plan, warnings, err
			}
			if errors.Is(err, backend.ErrNeedsInt64) {
				warnings := []Warning{{Msg: "using the CPU backend", Why: err}}
				plan, err := choose(cpu, p, "the GPU's int32 distances cannot hold this graph's; the CPU's int64 ones can")
				return plan, warnings, err
			}
			if err == nil && requested == Auto {
				plan.Why = "auto: " + plan.Why
			}
			return plan, nil, err
		}
	}
	if requested == backend.GPU {
		return Plan{}, nil, &NoGPUError{Why: why}
	}
	plan, err := choose(cpu, p, "auto: no GPU ("+why+")")
	return plan, nil, err
}

// choose asks f what it would run for p, classifying a refusal.
func choose(f backend.Factory, p backend.Problem, why string) (Plan, error) {
	c, err := f.Choose(p)
	switch {
	case errors.Is(err, backend.ErrNeedsInt64):
		return Plan{}, fmt.Errorf("%w (%s backend)", err, f.Name)
	case errors.Is(err, backend.ErrUnsupported) && p.Algorithm.Variant != "":
		return Plan{}, &ChooseError{Backend: f.Name, Setting: SettingVariant, Err: err}
	case errors.Is(err, backend.ErrUnsupported):
		return Plan{}, &ChooseError{Backend: f.Name, Setting: SettingAlgorithm, Err: err}
	case err != nil:
		return Plan{}, &ChooseError{Backend: f.Name, Setting: SettingNone, Err: err}
	}
	return Plan{Factory: f, Choice: c, Why: why}, nil
}

// FallBackOnOpenFailure reports whether a run whose planned backend
// failed to start goes on on the CPU: only when compute.backend is auto
// and the plan was not the CPU already.
func FallBackOnOpenFailure(requested, planned string) bool {
	return requested == Auto && planned != backend.CPU
}

// OpenFailedWhy is the Plan.Why of the CPU plan that replaces a backend
// that failed to start with err.
func OpenFailedWhy(err error) string {
	return "auto: the GPU failed to start (" + err.Error() + ")"
}

// OpenFailedWarning is the warning logged when the planned GPU failed to
// start with err and the run goes on on the CPU.
func OpenFailedWarning(err error) Warning {
	return Warning{Msg: "using the CPU backend", Why: fmt.Sprintf("the GPU failed to start: %v", err)}
}
