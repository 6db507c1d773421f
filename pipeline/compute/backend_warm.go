package compute

import (
	"log/slog"
	"time"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/planner"
)

// A GPU run pays, before its first upload, the driver's initialisation and
// a CUDA context per device: a few tenths of a second in which the host
// does nothing else when they are opened after the plan. None of it needs
// the graph, so the run starts it (backend.Factory.Warm) on a goroutine
// as soon as it knows the GPU will be used, and joins it just before
// opening the backend, which then takes the warmed contexts:
//   - compute.backend gpu: at the start of the run, before the input is
//     read, since every plan of that setting but one the GPU cannot run
//     opens the GPU (unless the run may end up skipped, see warmsBeforeLoad);
//   - otherwise once the plan chose the GPU (compute.backend auto), where
//     it still overlaps the stored hierarchy's reading and the output's
//     opening.
// Nothing is decided differently: the plan, its refusals and the fallback
// to the CPU of a GPU that fails to open are those of a run without the
// warm-up, whose failures only mean that Open starts the devices itself
// and reports the cause.

// StageBackendWarm is the key in the manifest's stages_seconds of the time
// the devices took to start on their own goroutine, beside the input's
// load: overlapped time, not part of the wall time the other stages add
// up to. The backend stage holds what the run waited for the backend
// (planning, the rest of the warm-up, Open).
const StageBackendWarm = "backend_warm"

// backendWarmup is a Factory.Warm running on a goroutine of its own.
type backendWarmup struct {
	done     chan struct{}
	giveBack func() error
	err      error
	took     time.Duration
}

// warmsBeforeLoad reports whether the run warms the GPU before reading
// its input: when compute.backend gpu asks for it and the run cannot turn
// out to be a no-op (skip_if_unchanged, a shard found complete), whose
// process would then wait for contexts it never uses.
func warmsBeforeLoad(cfg *Config) bool {
	return cfg.Backend == backend.GPU && !cfg.SkipIfSame && !cfg.Shard.Sharded() && !cfg.Finalize
}

// startWarmup starts warming devices (backend.Factory.Warm's argument) of
// the GPU backend backends has, or returns nil when it has none or
// cannot warm.
func startWarmup(backends planner.Backends, devices []int) *backendWarmup {
	f, ok := backends(backend.GPU)
	if !ok || f.Warm == nil {
		return nil
	}
	w := &backendWarmup{done: make(chan struct{})}
	began := time.Now()
	go func() {
		defer close(w.done)
		w.giveBack, w.err = f.Warm(devices)
		w.took = time.Since(began)
	}()
	return w
}

// warmPlanned starts warming the devices p opens, unless the warm-up w
// has already started (w itself is returned then) or p is not a GPU plan.
func warmPlanned(w *backendWarmup, cfg *Config, p Plan, backends planner.Backends) *backendWarmup {
	if w != nil || p.Factory.Name != backend.GPU {
		return w
	}
	devices := cfg.Device.Devices
	if p.devices != nil {
		devices = p.devices
	}
	return startWarmup(backends, devices)
}

// join waits for the warm-up to end, logs what did not start, and records
// its own time in stages. Nil does nothing.
func (w *backendWarmup) join(stages map[string]float64, log *slog.Logger) {
	if w == nil {
		return
	}
	<-w.done
	stages[StageBackendWarm] = w.took.Seconds()
	if w.err != nil {
		log.Debug("the GPU did not start ahead of the plan; it is opened with the backend", "why", w.err)
	}
}

// release waits for the warm-up to end and gives back the devices no
// backend took: called once the backend is open, and deferred from the
// moment the warm-up starts for the runs that end before. Later calls and
// nil do nothing.
func (w *backendWarmup) release(log *slog.Logger) {
	if w == nil {
		return
	}
	<-w.done
	giveBack := w.giveBack
	w.giveBack = nil // released once: after the backend's open, and on the way out
	if giveBack == nil {
		return
	}
	if err := giveBack(); err != nil {
		log.Warn("closing GPU contexts started ahead of the plan and not used", "why", err)
	}
}
