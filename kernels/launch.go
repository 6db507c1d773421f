//go:build cuda

package kernels

import (
	"fmt"
	"sync"
	"time"
	"unsafe"

	"gorgonia.org/cu"
)

// Dim3 is a grid or block shape; zero components count as 1.
type Dim3 struct{ X, Y, Z int }

func (d Dim3) norm() Dim3 {
	return Dim3{max(d.X, 1), max(d.Y, 1), max(d.Z, 1)}
}

// Config is a launch configuration.
type Config struct {
	// Grid and Block are the grid and block shapes.
	Grid, Block Dim3
	// SharedMem is the dynamic shared memory per block in bytes.
	SharedMem int
	// Stream is the stream to launch on; the zero value is the default
	// stream.
	Stream cu.Stream
}

// String formats the shapes for logs.
func (c Config) String() string {
	g, b := c.Grid.norm(), c.Block.norm()
	return fmt.Sprintf("grid (%d,%d,%d) block (%d,%d,%d)", g.X, g.Y, g.Z, b.X, b.Y, b.Z)
}

// Kernel is one compiled kernel: its C name and its PTX.
type Kernel struct {
	name string
	ptx  string
}

func newKernel(name, ptx string) *Kernel { return &Kernel{name: name, ptx: ptx} }

// Name is the kernel's C name.
func (k *Kernel) Name() string { return k.name }

// PTX is the kernel's PTX, for callers that load it themselves (a
// cooperative launch needs the driver's own function handle).
func (k *Kernel) PTX() string { return k.ptx }

// All returns every kernel, in file-name order.
func All() []*Kernel { return append([]*Kernel(nil), all...) }

// Module is every kernel loaded into one CUDA context, each function
// resolved once by Load, so a launch costs a lookup in a map that is never
// written again. A Module belongs to its context: use it only on the
// thread where that context is current (gpu.Device.Do). The generated
// launch wrappers are its methods.
type Module struct {
	fns map[*Kernel]cu.Function
}

// Load loads every kernel's PTX into the CUDA context current on the
// calling OS thread (the driver compiles it for the GPU, or takes it from
// its cache) and resolves the functions. Destroying the context unloads
// them.
func Load() (*Module, error) {
	ctx, err := cu.CurrentContext()
	if err != nil {
		return nil, fmt.Errorf("kernels: no current CUDA context: %w", err)
	}
	if ctx == (cu.CUContext{}) {
		return nil, fmt.Errorf("kernels: no CUDA context is current on this thread (load inside gpu.Device.Do)")
	}
	m := &Module{fns: make(map[*Kernel]cu.Function, len(all))}
	for _, k := range all {
		mod, err := cu.LoadData(k.ptx)
		if err != nil {
			return nil, fmt.Errorf("kernels: loading %s: %w", k.name, err)
		}
		if m.fns[k], err = mod.Function(k.name); err != nil {
			return nil, fmt.Errorf("kernels: finding %s in its module: %w", k.name, err)
		}
	}
	return m, nil
}

// Function returns k's function in the module's context.
func (m *Module) Function(k *Kernel) cu.Function { return m.fns[k] }

// launch launches k with cfg, checks the launch's own error and, in debug
// mode, synchronises and reports the kernel's duration.
func (m *Module) launch(k *Kernel, cfg Config, args []unsafe.Pointer) error {
	fn, ok := m.fns[k]
	if !ok {
		return fmt.Errorf("kernels: %s is not in the module (load it with Load)", k.name)
	}
	g, b := cfg.Grid.norm(), cfg.Block.norm()
	obs := observer()
	if obs == nil {
		if err := fn.Launch(g.X, g.Y, g.Z, b.X, b.Y, b.Z, cfg.SharedMem, cfg.Stream, args); err != nil {
			return fmt.Errorf("kernels: launching %s with %v: %w", k.name, cfg, err)
		}
		return nil
	}
	// Debug mode: settle earlier work so the time is this kernel's alone,
	// and surface asynchronous faults at the launch that caused them.
	if err := cu.Synchronize(); err != nil {
		return fmt.Errorf("kernels: before %s: %w", k.name, err)
	}
	start := time.Now()
	err := fn.Launch(g.X, g.Y, g.Z, b.X, b.Y, b.Z, cfg.SharedMem, cfg.Stream, args)
	if err == nil {
		err = cu.Synchronize()
	}
	if err != nil {
		err = fmt.Errorf("kernels: %s with %v: %w", k.name, cfg, err)
	}
	obs(LaunchReport{Kernel: k.name, Config: cfg, Elapsed: time.Since(start), Err: err})
	return err
}

// LaunchReport describes one launch in debug mode.
type LaunchReport struct {
	// Kernel is the kernel's C name.
	Kernel string
	// Config is the launch configuration.
	Config Config
	// Elapsed is the wall time from launch to completion (the kernel plus
	// launch latency, a few microseconds).
	Elapsed time.Duration
	// Err is the launch's or the kernel's error.
	Err error
}

var (
	observerMu sync.RWMutex
	observerFn func(LaunchReport)
)

// SetLaunchObserver turns debug mode on (obs != nil) or off: in debug mode
// every launch synchronises the context and hands a LaunchReport to obs, so
// a fault names the kernel that caused it. internal/gpu turns it on when
// PATHFLOW_GPU_SYNC=1.
func SetLaunchObserver(obs func(LaunchReport)) {
	observerMu.Lock()
	observerFn = obs
	observerMu.Unlock()
}

func observer() func(LaunchReport) {
	observerMu.RLock()
	defer observerMu.RUnlock()
	return observerFn
}
