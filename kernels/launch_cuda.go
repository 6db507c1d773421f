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

// Module holds the kernels loaded into one CUDA context. Each kernel is
// loaded and its function resolved once, on its first launch: a process
// that runs one algorithm compiles only that algorithm's PTX (the driver
// compiles every module it loads, which for all of them takes more than a
// second on a cold cache), and later launches read the function without a
// lock. A Module belongs to its context: use it only on the thread where
// that context is current (device.Device.Do). The generated launch wrappers
// are its methods.
type Module struct {
	fns sync.Map   // *Kernel -> cu.Function, written once per kernel
	mu  sync.Mutex // serialises first loads
}

// Load returns the Module of the CUDA context current on the calling OS
// thread. Destroying the context unloads its kernels.
func Load() (*Module, error) {
	ctx, err := cu.CurrentContext()
	if err != nil {
		return nil, fmt.Errorf("kernels: no current CUDA context: %w", err)
	}
	if ctx == (cu.CUContext{}) {
		return nil, fmt.Errorf("kernels: no CUDA context is current on this thread (load inside device.Device.Do)")
	}
	return &Module{}, nil
}

// Function returns k's function in the module's context, loading k on
// first use (the driver compiles its PTX for the GPU, or takes it from its
// cache).
func (m *Module) Function(k *Kernel) (cu.Function, error) {
	if fn, ok := m.fns.Load(k); ok {
		return fn.(cu.Function), nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if fn, ok := m.fns.Load(k); ok {
		return fn.(cu.Function), nil
	}
	mod, err := cu.LoadData(k.ptx)
	if err != nil {
		return cu.Function{}, fmt.Errorf("kernels: loading %s: %w", k.name, err)
	}
	fn, err := mod.Function(k.name)
	if err != nil {
		return cu.Function{}, fmt.Errorf("kernels: finding %s in its module: %w", k.name, err)
	}
	m.fns.Store(k, fn)
	return fn, nil
}

// launch launches k with cfg, checks the launch's own error and, in debug
// mode, synchronises and reports the kernel's duration.
func (m *Module) launch(k *Kernel, cfg Config, args []unsafe.Pointer) error {
	fn, err := m.Function(k)
	if err != nil {
		return err
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
	err = fn.Launch(g.X, g.Y, g.Z, b.X, b.Y, b.Z, cfg.SharedMem, cfg.Stream, args)
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
// a fault names the kernel that caused it. internal/gpu/device turns it on when
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
