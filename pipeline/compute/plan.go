package compute

import (
	"errors"
	"fmt"
	"log/slog"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/config"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/planner"
	"github.com/pathflow/pathflow/pipeline/stageerr"
)

// Plan is what a compute run will do, decided on the host before any
// device is opened: which backend, which algorithm and variant, in which
// integer width, and why (the planner's Plan), with the stage's way of
// starting it (open).
type Plan struct {
	planner.Plan
}

// planRun asks the planner which backend compute.backend names and what
// that backend would run (planner.ChooseBackend: auto's GPU-or-CPU pick,
// the fallbacks to the CPU), logs the planner's warnings, and turns its
// refusals into the stage's errors: a *stageerr.NoGPUError for gpu
// without a usable GPU (exit ExitNoGPU), a configuration error naming
// compute.algorithm or compute.variant for a request the backend lacks.
func planRun(cfg *Config, e *graph.EdgeList, sources int, log *slog.Logger) (Plan, error) {
	lo, hi := e.WeightRange()
	problem := backend.Problem{
		N: e.N, M: int64(e.M()), MinWeight: lo, MaxWeight: hi,
		Sources: sources, AllSources: cfg.allSources(),
		Algorithm: backend.Algorithm{Name: cfg.Algorithm, Variant: cfg.Variant, TileEdge: cfg.TileEdge},
		Metric:    len(cfg.Metrics) > 0,
	}
	p, warnings, err := planner.ChooseBackend(cfg.Backend, problem, backend.Lookup)
	for _, w := range warnings {
		log.Warn(w.Msg, "why", w.Why)
	}
	if err != nil {
		return Plan{}, planError(err)
	}
	return Plan{p}, nil
}

// planError is the stage's error for the planner's err: the key to change
// for a refused request, the exit status for a missing GPU.
func planError(err error) error {
	var noGPU *planner.NoGPUError
	var refused *planner.ChooseError
	switch {
	case errors.As(err, &noGPU):
		return &stageerr.NoGPUError{Why: noGPU.Why}
	case !errors.As(err, &refused):
		return err
	case refused.Setting == planner.SettingVariant:
		return config.Errorf(KeyVariant, "%w", refused.Err)
	case refused.Setting == planner.SettingAlgorithm:
		return config.Errorf(KeyAlgorithm, "%w", refused.Err)
	}
	return &stageerr.ComputeError{Err: refused.Err}
}

// open starts the planned backend. When auto picked a GPU that then fails
// to start, the run goes on on the CPU, re-planned, with a warning.
func (p *Plan) open(cfg *Config, e *graph.EdgeList, sources int, log *slog.Logger) (backend.Backend, error) {
	b, err := p.Factory.Open(cfg.Device.backendOptions(cfg.Workers))
	if err == nil {
		return b, nil
	}
	if !planner.FallBackOnOpenFailure(cfg.Backend, p.Factory.Name) {
		return nil, &stageerr.ComputeError{Err: fmt.Errorf("starting the %s backend: %w", p.Factory.Name, err)}
	}
	w := planner.OpenFailedWarning(err)
	log.Warn(w.Msg, "why", w.Why)
	cpuCfg := *cfg
	cpuCfg.Backend = backend.CPU
	plan, perr := planRun(&cpuCfg, e, sources, log)
	if perr != nil {
		return nil, perr
	}
	plan.Why = planner.OpenFailedWhy(err)
	*p = plan
	return p.open(&cpuCfg, e, sources, log)
}
