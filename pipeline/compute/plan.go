package compute

import (
	"errors"
	"fmt"
	"log/slog"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/pipeline/stageerr"
)

// Plan is what a compute run will do, decided on the host before any
// device is opened: which backend, which algorithm and variant, in which
// integer width, and why.
type Plan struct {
	Factory backend.Factory
	Choice  backend.Choice
	// Why says how the backend was picked (for the log and the manifest).
	Why string
}

// planRun picks the backend compute.backend names and asks it what it would
// run. "auto" takes the GPU when this build registered one, a device
// answers and the GPU can compute the problem exactly; else the CPU, with
// the reason logged. "gpu" without a usable GPU is a *NoGPUError saying
// what is missing (exit ExitNoGPU). A GPU whose int32 arithmetic is too narrow for the
// graph gives way to the CPU (with a warning) here, before a context is
// opened.
func planRun(cfg *Config, e *graph.EdgeList, sources int, log *slog.Logger) (Plan, error) {
	lo, hi := e.WeightRange()
	problem := backend.Problem{
		N: e.N, M: int64(e.M()), MinWeight: lo, MaxWeight: hi,
		Sources: sources, AllSources: cfg.allSources(),
		Algorithm: backend.Algorithm{Name: cfg.Algorithm, Variant: cfg.Variant, TileEdge: cfg.TileEdge},
		Parents:   cfg.Parents,
	}
	cpu, ok := backend.Lookup(backend.CPU)
	if !ok {
		return Plan{}, errors.New("pipeline: no CPU backend registered")
	}
	if cfg.Backend == backend.CPU {
		return choose(cpu, problem, "requested")
	}
	gpu, registered := backend.Lookup(backend.GPU)
	why := "this build has no GPU backend (build with -tags cuda)"
	if registered {
		var ok bool
		if ok, why = gpu.Available(); ok {
			plan, err := choose(gpu, problem, "GPU "+why)
			// auto runs on the CPU what only the CPU implements (johnson,
			// its variants).
			if cfg.Backend == BackendAuto && errors.Is(err, backend.ErrUnsupported) {
				cause := errors.Unwrap(err)
				log.Warn("using the CPU backend", "why", cause)
				return choose(cpu, problem, fmt.Sprintf("auto: the GPU does not implement this request (%v)", cause))
			}
			if errors.Is(err, backend.ErrNeedsInt64) {
				log.Warn("using the CPU backend", "why", err)
				return choose(cpu, problem, "the GPU's int32 distances cannot hold this graph's; the CPU's int64 ones can")
			}
			if err == nil && cfg.Backend == BackendAuto {
				plan.Why = "auto: " + plan.Why
			}
			return plan, err
		}
	}
	if cfg.Backend == backend.GPU {
		return Plan{}, &stageerr.NoGPUError{Why: why}
	}
	return choose(cpu, problem, "auto: no GPU ("+why+")")
}

// choose asks f what it would run for p, reporting a request it cannot
// serve as a configuration error naming the key to change.
func choose(f backend.Factory, p backend.Problem, why string) (Plan, error) {
	c, err := f.Choose(p)
	switch {
	case errors.Is(err, backend.ErrNeedsInt64):
		return Plan{}, fmt.Errorf("%w (%s backend)", err, f.Name)
	case errors.Is(err, backend.ErrUnsupported) && p.Algorithm.Variant != "":
		return Plan{}, config.Errorf(KeyVariant, "%w", err)
	case errors.Is(err, backend.ErrUnsupported):
		return Plan{}, config.Errorf(KeyAlgorithm, "%w", err)
	case err != nil:
		return Plan{}, &stageerr.ComputeError{Err: err}
	}
	return Plan{Factory: f, Choice: c, Why: why}, nil
}

// open starts the planned backend. When auto picked a GPU that then fails
// to start, the run goes on on the CPU, re-planned, with a warning.
func (p *Plan) open(cfg *Config, e *graph.EdgeList, sources int, log *slog.Logger) (backend.Backend, error) {
	b, err := p.Factory.Open(cfg.Device.backendOptions(cfg.Workers))
	if err == nil {
		return b, nil
	}
	if cfg.Backend != BackendAuto || p.Factory.Name == backend.CPU {
		return nil, &stageerr.ComputeError{Err: fmt.Errorf("starting the %s backend: %w", p.Factory.Name, err)}
	}
	log.Warn("using the CPU backend", "why", fmt.Sprintf("the GPU failed to start: %v", err))
	cpuCfg := *cfg
	cpuCfg.Backend = backend.CPU
	plan, perr := planRun(&cpuCfg, e, sources, log)
	if perr != nil {
		return nil, perr
	}
	plan.Why = "auto: the GPU failed to start (" + err.Error() + ")"
	*p = plan
	return p.open(&cpuCfg, e, sources, log)
}
