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
// integer width, and why (the planner's Plan), on which devices, with the
// stage's way of starting it (open).
type Plan struct {
	planner.Plan
	// devices are the GPU ordinals to open in place of compute.devices
	// "all" when the cost model wants fewer than are visible; nil to open
	// what compute.devices says.
	devices []int
}

// planRun asks the planner which backend compute.backend names and what
// that backend would run (planner.ChooseBackend: auto's GPU-or-CPU pick,
// the fallbacks to the CPU), then sizes a GPU plan with the cost model
// (sizePlan), logs the planner's warnings, and turns its refusals into
// the stage's errors: a *stageerr.NoGPUError for gpu without a usable GPU
// (exit ExitNoGPU), a configuration error naming compute.algorithm or
// compute.variant for a request the backend lacks.
func planRun(cfg *Config, e *graph.EdgeList, job jobSize, log *slog.Logger) (Plan, error) {
	lo, hi := e.WeightRange()
	problem := backend.Problem{
		N: e.N, M: int64(e.M()), MinWeight: lo, MaxWeight: hi,
		Sources: job.Sources, AllSources: cfg.allSources(),
		Algorithm: backend.Algorithm{Name: cfg.Algorithm, Variant: cfg.Variant, TileEdge: cfg.TileEdge},
		Metric:    len(cfg.Metrics) > 0,
	}
	if plan, ok := cpuBeforeAsking(cfg, problem, job, backend.Lookup); ok {
		return plan, nil
	}
	p, warnings, err := planner.ChooseBackend(cfg.Backend, problem, backend.Lookup)
	for _, w := range warnings {
		log.Warn(w.Msg, "why", w.Why)
	}
	if err != nil {
		return Plan{}, planError(err)
	}
	plan := Plan{Plan: p}
	if p.Factory.Name == backend.GPU {
		plan = sizePlan(cfg, problem, job, plan, backend.Lookup)
	}
	return plan, nil
}

// cpuBeforeAsking plans the CPU, under compute.backend auto, for a job
// the CPU is estimated to finish before a GPU could have started (one
// CUDA context and the graph's upload): the GPU backend is not even asked
// whether a device answers, which would load and initialise the driver.
// Only a GPU backend that describes its devices is passed over this way,
// as sizePlan weighs only those.
func cpuBeforeAsking(cfg *Config, problem backend.Problem, job jobSize, backends planner.Backends) (Plan, bool) {
	if cfg.Backend != BackendAuto {
		return Plan{}, false
	}
	if gpu, ok := backends(backend.GPU); !ok || gpu.Devices == nil {
		return Plan{}, false
	}
	cpu, _, err := planner.ChooseBackend(backend.CPU, problem, backends)
	if err != nil {
		return Plan{}, false
	}
	seconds := job.cpuSeconds(cpu.Choice.Algorithm.Name)
	start := job.gpuSeconds("", 1)
	if seconds > start.Seconds {
		return Plan{}, false
	}
	cpu.Why = fmt.Sprintf("auto: the CPU is estimated faster for this job: %.3g s on %d cores, less than starting a GPU (opening %.3g s, upload %.3g s); the GPU was not asked",
		seconds, job.cpuCores(cpu.Choice.Algorithm.Name), start.OpenSeconds, start.UploadSeconds)
	return Plan{Plan: cpu}, true
}

// sizePlan weighs a GPU plan with the cost model (place) when the GPU
// backend describes its devices: under compute.backend auto a job the
// CPU is estimated to finish sooner than the GPU, its start included,
// goes to the CPU, saying why; otherwise, with compute.devices "all",
// only as many devices are opened as the job repays. A list of ordinals is opened as given, and
// compute.backend gpu stays on the GPU. Without a description, or when
// the devices cannot be described, the plan stays as it is (open then
// reports what is wrong).
func sizePlan(cfg *Config, problem backend.Problem, job jobSize, plan Plan, backends planner.Backends) Plan {
	if plan.Factory.Devices == nil {
		return plan
	}
	visible, err := plan.Factory.Devices()
	if err != nil || len(visible) == 0 {
		return plan
	}
	if cfg.Device.Devices != nil {
		listed := make([]backend.DeviceInfo, 0, len(cfg.Device.Devices))
		for _, o := range cfg.Device.Devices {
			listed = append(listed, backend.DeviceInfo{Ordinal: o, Name: fmt.Sprintf("device %d", o)})
		}
		visible = listed
	}
	cpuAlg := ""
	cpu, _, cpuErr := planner.ChooseBackend(backend.CPU, problem, backends)
	if cpuErr == nil {
		cpuAlg = cpu.Choice.Algorithm.Name
	}
	placed := place(job, cpuAlg, plan.Choice.Algorithm.Name, visible)
	if placed.CPU && cfg.Backend == BackendAuto && cpuErr == nil {
		cpu.Why = fmt.Sprintf("auto: the CPU is estimated faster for this job: %s against %s", placed.CPUText, placed.GPUText)
		return Plan{Plan: cpu}
	}
	if cfg.Device.Devices == nil && placed.Devices < len(visible) {
		for _, d := range visible[:placed.Devices] {
			plan.devices = append(plan.devices, d.Ordinal)
		}
	}
	plan.Why += fmt.Sprintf("; estimated %s against %s on the CPU", placed.GPUText, placed.CPUText)
	return plan
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
	opts := cfg.Device.backendOptions(cfg.Workers)
	if p.devices != nil {
		opts.Devices = p.devices
	}
	b, err := p.Factory.Open(opts)
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
	plan, perr := planRun(&cpuCfg, e, jobSize{Sources: sources}, log)
	if perr != nil {
		return nil, perr
	}
	plan.Why = planner.OpenFailedWhy(err)
	*p = plan
	return p.open(&cpuCfg, e, sources, log)
}
