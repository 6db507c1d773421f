package backend

import (
	"fmt"
	"maps"
	"slices"
	"sync"
)

// Problem is what a run asks for, as known on the host before any device
// is opened.
type Problem struct {
	// N and M are the graph's vertex and arc counts; MinWeight and
	// MaxWeight its weight range (both 0 without arcs).
	N                    int32
	M                    int64
	MinWeight, MaxWeight int32
	// Sources is the number of rows asked for; AllSources is true when they
	// are every vertex.
	Sources    int
	AllSources bool
	// Algorithm is as configured: its name may be "auto" and its variant
	// empty.
	Algorithm Algorithm
	// Metric says that the run asks for a metric beside the distance
	// (results.Metric), which only some algorithms report.
	Metric bool
}

// Choice is what a backend will run for a Problem.
type Choice struct {
	// Algorithm has a concrete name and variant, as it will appear in the
	// outputs' metadata.
	Algorithm Algorithm
	// AllPairs is true when the algorithm computes a whole matrix, of which
	// the requested rows are handed over.
	AllPairs bool
	// Int64 is true when distances come as results.Rows.Dist64, false for
	// Dist32. A backend computing in int64 may still hand over a block in
	// Dist32 where all its distances fit (the CPU's whole ch trees do, to
	// halve their blocks' distances); consumers read either width through
	// results.Distances.
	Int64 bool
	// Reason says why, for the log and the manifest.
	Reason string
}

// Options configure a backend when it is opened.
type Options struct {
	// Workers is the number of host goroutines for parallel work.
	Workers int
	// Devices are the accelerator ordinals to use (compute.devices); nil
	// means every visible one. A device may be listed twice.
	Devices []int
	// MemoryLimit caps the accelerator memory a run plans to use per
	// device, in bytes (gpu.memory_limit); 0 means the device's own.
	MemoryLimit int64
}

// Factory is a backend as registered: what it is called, whether it can
// run here, what it would run, and how to start it.
type Factory struct {
	Name string
	// Available reports whether the backend can run on this machine and
	// says why, or why not. It opens nothing it keeps.
	Available func() (ok bool, why string)
	// Choose decides what the backend would run for p without touching a
	// device. Errors wrap ErrUnsupported for requests the backend does not
	// implement and ErrNeedsInt64 when its arithmetic is too narrow.
	Choose func(p Problem) (Choice, error)
	// Open starts the backend.
	Open func(o Options) (Backend, error)
	// Devices describes the accelerators Open would use with Options.Devices
	// nil (every visible one), without opening any: the planner weighs a
	// job against the cost of opening them. Nil for a backend without
	// devices, or one that cannot say (the planner then takes it as it
	// is).
	Devices func() ([]DeviceInfo, error)
	// Warm, when set, starts ahead of the plan what Open needs whatever the
	// job, so that it runs while the caller loads its input: for the GPU
	// backend the driver and a context on each of devices (nil: the first
	// device, which every plan that opens one opens). An Open whose
	// options name warmed devices takes them instead of starting them
	// again. giveBack releases what no Open took; call it once, after the
	// last Open, whether or not Warm failed. An error only means that less
	// was warmed: Open starts the rest and reports any cause again. Warm
	// may run on a goroutine of its own, beside the other functions; an
	// Open called before Warm returns does not wait for it (callers join
	// first).
	Warm func(devices []int) (giveBack func() error, err error)
	// Confine, when set, tells the backend that this process will use no
	// device but devices, before anything else is called: the GPU backend
	// hides the others from its driver, whose start then takes the time
	// of those alone. It reports what it did for the log (done false:
	// nothing). Only a process's owner calls it (ConfineDevices): it
	// changes what the whole process sees.
	Confine func(devices []int) (what string, done bool, err error)
}

// DeviceInfo is one accelerator as its driver describes it before a
// context is created on it.
type DeviceInfo struct {
	// Ordinal is the device's number, as Options.Devices names it.
	Ordinal int
	// Name is the driver's name of the device, e.g. "NVIDIA H200".
	Name string
	// Memory is the device's total memory in bytes.
	Memory int64
}

var (
	registryMu sync.RWMutex
	registry   = map[string]Factory{}
)

// Register makes a backend available under f.Name; registering a name twice
// panics, as a programming error.
func Register(f Factory) {
	registryMu.Lock()
	defer registryMu.Unlock()
	if f.Name == "" || f.Available == nil || f.Choose == nil || f.Open == nil {
		panic("backend: Register needs a name, Available, Choose and Open")
	}
	if _, dup := registry[f.Name]; dup {
		panic(fmt.Sprintf("backend: %q registered twice", f.Name))
	}
	registry[f.Name] = f
}

// Unregister removes a backend; for tests that register fakes.
func Unregister(name string) {
	registryMu.Lock()
	defer registryMu.Unlock()
	delete(registry, name)
}

// Lookup returns the backend registered under name.
func Lookup(name string) (Factory, bool) {
	registryMu.RLock()
	defer registryMu.RUnlock()
	f, ok := registry[name]
	return f, ok
}

// Names lists the registered backends in alphabetical order.
func Names() []string {
	registryMu.RLock()
	defer registryMu.RUnlock()
	return slices.Sorted(maps.Keys(registry))
}
