package compute

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/pipeline/stageerr"
)

// The tests in this file replace the "gpu" backend in the global registry;
// none of them may run in parallel.

// warmLog records what a fake GPU factory's Warm, giveBack and Open were
// asked, in order.
type warmLog struct {
	mu     sync.Mutex
	events []string
	warmed []int // Warm's devices, of the last call
	// started is signalled when Warm is called.
	started chan struct{}
}

func newWarmLog() *warmLog { return &warmLog{started: make(chan struct{}, 8)} }

func (w *warmLog) add(event string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.events = append(w.events, event)
}

func (w *warmLog) all() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.events)
}

func (w *warmLog) count(event string) int {
	n := 0
	for _, e := range w.all() {
		if e == event {
			n++
		}
	}
	return n
}

// warmingGPU is fakeGPUFactory(open) with a Warm that logs into w and
// fails with warmErr when it is not nil.
func warmingGPU(w *warmLog, open func(o backend.Options) (backend.Backend, error), warmErr error) backend.Factory {
	f := fakeGPUFactory(open)
	inner := f.Open
	f.Open = func(o backend.Options) (backend.Backend, error) {
		w.add("open")
		return inner(o)
	}
	f.Warm = func(devices []int) (func() error, error) {
		w.add("warm")
		w.mu.Lock()
		w.warmed = slices.Clone(devices)
		w.mu.Unlock()
		w.started <- struct{}{}
		return func() error { w.add("give back"); return nil }, warmErr
	}
	return f
}

// loadGate is a log handler that holds the run when the input's loader
// names the file's format, before it reads the file, until Warm has been
// called (or 20 seconds have passed): a run that warmed only after the load
// would wait there in vain.
type loadGate struct {
	warm        *warmLog
	mu          sync.Mutex
	held        bool // the loader logged its format
	warmedFirst bool
}

func (g *loadGate) Enabled(context.Context, slog.Level) bool { return true }
func (g *loadGate) WithAttrs([]slog.Attr) slog.Handler       { return g }
func (g *loadGate) WithGroup(string) slog.Handler            { return g }

func (g *loadGate) Handle(_ context.Context, r slog.Record) error {
	if !strings.HasPrefix(r.Message, "format ") {
		return nil
	}
	warmed := false
	select {
	case <-g.warm.started:
		warmed = true
	case <-time.After(20 * time.Second):
	}
	g.mu.Lock()
	g.held, g.warmedFirst = true, warmed
	g.mu.Unlock()
	return nil
}

// TestComputeWarmsTheGPUWhileTheInputLoads: with compute.backend gpu the
// devices start before the input is read (loadGate), and the backend
// opened later takes them.
func TestComputeWarmsTheGPUWhileTheInputLoads(t *testing.T) {
	w := newWarmLog()
	registerFake(t, warmingGPU(w, nil, nil))
	dir := t.TempDir()
	in := writeGR(t, "g.gr", mustGenerate(t, "grid:side=6,seed=1"))
	gate := &loadGate{warm: w}
	cfg := loadCompute(t, "", "-input", in, "-format", "dimacs", "-backend", "gpu", "-devices", "1", "-sources", "0", "-out", filepath.Join(dir, "out"))
	res, err := Run(context.Background(), cfg, slog.New(gate), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if !gate.held || !gate.warmedFirst {
		t.Errorf("the input was read before Warm was called (the loader logged its format: %v)", gate.held)
	}
	if res.Manifest.Backend != backend.GPU {
		t.Errorf("ran on %s, want gpu", res.Manifest.Backend)
	}
	if got, want := w.all(), []string{"warm", "open", "give back"}; !slices.Equal(got, want) {
		t.Errorf("factory calls %q, want %q", got, want)
	}
	if !slices.Equal(w.warmed, []int{1}) {
		t.Errorf("warmed devices %v, want the configured [1]", w.warmed)
	}
	if _, ok := res.Manifest.StagesSeconds[StageBackendWarm]; !ok {
		t.Errorf("stages %v lack %s", res.Manifest.StagesSeconds, StageBackendWarm)
	}
}

// TestComputeWarmsOnlyWhatThePlanUses: auto warms once the plan chose the
// GPU (a ch table, answered from the stored hierarchy); a CPU plan, and a
// run that may be skipped, warm nothing.
func TestComputeWarmsOnlyWhatThePlanUses(t *testing.T) {
	ingestOut, _ := ingestTo(t, "-generate", "road:side=12,seed=4", "-hierarchy", "on")
	for _, tc := range []struct {
		name string
		args []string
		// described gives the fake GPU a device description, with which
		// auto weighs the job and sends this small one to the CPU.
		described bool
		calls     []string
	}{
		{"auto ch from the stored hierarchy", []string{"-backend", "auto", "-algorithm", "ch", "-sources", "0-3", "-targets", "5-9"}, false, []string{"warm", "open", "give back"}},
		{"auto, the CPU estimated faster", []string{"-backend", "auto", "-algorithm", "ch", "-sources", "0-3", "-targets", "5-9"}, true, nil},
		{"cpu", []string{"-backend", "cpu", "-algorithm", "ch", "-sources", "0-3", "-targets", "5-9"}, false, nil},
		{"gpu, skip if unchanged", []string{"-backend", "gpu", "-algorithm", "dijkstra", "-sources", "0", "-skip-if-unchanged"}, false, []string{"open"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWarmLog()
			f := warmingGPU(w, nil, nil)
			if tc.described {
				f.Devices = func() ([]backend.DeviceInfo, error) {
					return []backend.DeviceInfo{{Ordinal: 0, Name: "fake GPU", Memory: 1 << 30}}, nil
				}
			}
			registerFake(t, f)
			out := filepath.Join(t.TempDir(), "out")
			args := append([]string{"-input", ingestOut, "-out", out}, tc.args...)
			runCompute(t, loadCompute(t, "", args...))
			if got := w.all(); !slices.Equal(got, tc.calls) {
				t.Errorf("factory calls %q, want %q", got, tc.calls)
			}
		})
	}
}

// TestComputeWarmedGPUFailures: a warmed GPU that fails to open falls back
// to the CPU under auto and keeps its exit status under gpu; a warm-up
// that fails changes nothing the plan decides; whatever happens, what was
// warmed is given back once.
func TestComputeWarmedGPUFailures(t *testing.T) {
	ingestOut, _ := ingestTo(t, "-generate", "road:side=8,seed=5", "-hierarchy", "on")
	failOpen := func(backend.Options) (backend.Backend, error) {
		return nil, errors.New("fake gpu: CUDA_ERROR_OUT_OF_MEMORY")
	}
	for _, tc := range []struct {
		name      string
		open      func(backend.Options) (backend.Backend, error)
		warmErr   error
		available bool
		args      []string
		kind      stageerr.Kind // Internal: the run succeeds
		ranOn     string
	}{
		{"auto, open fails: CPU", failOpen, nil, true, []string{"-backend", "auto", "-algorithm", "ch"}, stageerr.Internal, backend.CPU},
		{"gpu, open fails: compute error", failOpen, nil, true, []string{"-backend", "gpu"}, stageerr.Compute, ""},
		{"gpu, warm-up fails, open works", nil, errors.New("fake gpu: busy"), true, []string{"-backend", "gpu"}, stageerr.Internal, backend.GPU},
		{"gpu, no device", failOpen, errors.New("fake gpu: no device"), false, []string{"-backend", "gpu"}, stageerr.NoGPU, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWarmLog()
			f := warmingGPU(w, tc.open, tc.warmErr)
			if !tc.available {
				f.Available = func() (bool, string) { return false, "no device answers" }
			}
			registerFake(t, f)
			out := filepath.Join(t.TempDir(), "out")
			args := append([]string{"-input", ingestOut, "-out", out, "-sources", "0-2", "-targets", "3-5"}, tc.args...)
			res, logs, err := computeLogged(t, loadCompute(t, "", args...))
			if tc.kind != stageerr.Internal {
				if stageerr.KindOf(err) != tc.kind {
					t.Fatalf("err = %v (kind %v), want kind %v", err, stageerr.KindOf(err), tc.kind)
				}
			} else if err != nil {
				t.Fatal(err)
			} else if res.Manifest.Backend != tc.ranOn {
				t.Errorf("ran on %s, want %s", res.Manifest.Backend, tc.ranOn)
			}
			if n := w.count("warm"); n != 1 {
				t.Errorf("warmed %d times, want once; calls %q", n, w.all())
			}
			if n := w.count("give back"); n != 1 {
				t.Errorf("gave back %d times, want once; calls %q", n, w.all())
			}
			if tc.ranOn == backend.CPU {
				warnings := logs.Warnings()
				if len(warnings) != 1 || !strings.Contains(warnings[0], "CUDA_ERROR_OUT_OF_MEMORY") {
					t.Errorf("warnings %q, want one with the GPU's error", warnings)
				}
			}
		})
	}
}
