//go:build cuda

package device

import (
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"slices"
	"sync"

	"gorgonia.org/cu"

	"github.com/pathflow/pathflow/kernels"
)

// errClosed is returned by Device.Do after Close.
var errClosed = errors.New("gpu: device is closed")

// Device is one GPU with a CUDA context of its own. The context is current
// only on a dedicated OS thread, run by a goroutine that never unlocks it;
// Do hands that goroutine closures, one at a time. A Device is safe for
// concurrent use.
type Device struct {
	ordinal      int
	name         string
	major, minor int
	sms          int
	totalMem     int64

	mu     sync.RWMutex // guards closed; Do holds it for reading while handing work over
	closed bool
	work   chan func()
	done   chan error // receives the context's destruction error, then closes
	c      *Ctx

	// peersMu guards peers: the devices whose memory this one's context
	// may read (EnablePeerAccess).
	peersMu sync.Mutex
	peers   []*Device
}

// Open creates a context on GPU ordinal and starts its thread. Close
// releases both.
func Open(ordinal int) (*Device, error) {
	dev, err := Lookup(ordinal)
	if err != nil {
		return nil, err
	}
	d := &Device{ordinal: ordinal, work: make(chan func()), done: make(chan error, 1)}
	if d.name, err = dev.Name(); err != nil {
		return nil, fmt.Errorf("gpu: device %d name: %w", ordinal, err)
	}
	if d.totalMem, err = dev.TotalMem(); err != nil {
		return nil, fmt.Errorf("gpu: device %d memory: %w", ordinal, err)
	}
	for _, a := range []struct {
		attr cu.DeviceAttribute
		to   *int
	}{{cu.ComputeCapabilityMajor, &d.major}, {cu.ComputeCapabilityMinor, &d.minor}, {cu.MultiprocessorCount, &d.sms}} {
		if *a.to, err = dev.Attribute(a.attr); err != nil {
			return nil, fmt.Errorf("gpu: device %d attributes: %w", ordinal, err)
		}
	}
	ready := make(chan error)
	go d.loop(dev, ready)
	if err := <-ready; err != nil {
		return nil, err
	}
	enableDebugFromEnv()
	return d, nil
}

// loop owns the context: it creates it on its locked thread, runs handed
// work until Close, then destroys it. The thread is never unlocked, so it
// exits with the goroutine and no other goroutine inherits the context.
func (d *Device) loop(dev cu.Device, ready chan<- error) {
	runtime.LockOSThread()
	ctx, err := dev.MakeContext(cu.SchedBlockingSync)
	if err != nil {
		ready <- fmt.Errorf("gpu: creating a context on device %d: %w", d.ordinal, err)
		return
	}
	mod, err := kernels.Load()
	if err != nil {
		ready <- errors.Join(fmt.Errorf("gpu: device %d: %w", d.ordinal, err), ctx.Destroy())
		return
	}
	d.c = &Ctx{dev: d, ctx: ctx, kernels: mod}
	ready <- nil
	for fn := range d.work {
		fn()
	}
	if err := errors.Join(d.c.closeUploads(), ctx.Destroy()); err != nil {
		d.done <- fmt.Errorf("gpu: destroying the context of device %d: %w", d.ordinal, err)
	}
	close(d.done)
}

// Do runs fn on the device's thread, with its context current, and returns
// fn's error. Calls from several goroutines run one after the other. fn
// must not call Do itself (it would wait for itself). A panic in fn is
// returned as an error.
func (d *Device) Do(fn func(c *Ctx) error) error {
	d.mu.RLock()
	if d.closed {
		d.mu.RUnlock()
		return errClosed
	}
	result := make(chan error, 1)
	d.work <- func() { result <- d.run(fn) }
	d.mu.RUnlock()
	return <-result
}

func (d *Device) run(fn func(c *Ctx) error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("gpu: panic on the device thread: %v\n%s", r, debug.Stack())
		}
	}()
	return fn(d.c)
}

// ReleaseInto runs release (a Close or Free) and joins its error, if any,
// to *err. Deferred as defer ReleaseInto(&err, timer.Close), it reports a
// failed release without hiding the error being returned.
func ReleaseInto(err *error, release func() error) {
	if rerr := release(); rerr != nil {
		*err = errors.Join(*err, rerr)
	}
}

// Close waits for work handed over so far, then destroys the context.
// Later calls do nothing.
func (d *Device) Close() error {
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return nil
	}
	d.closed = true
	close(d.work)
	d.mu.Unlock()
	return <-d.done
}

// reaches reports whether d's context can copy other's memory over a
// direct link: peer access was enabled from d to other, or both are
// contexts on one GPU.
func (d *Device) reaches(other *Device) bool {
	if d.ordinal == other.ordinal {
		return true
	}
	d.peersMu.Lock()
	defer d.peersMu.Unlock()
	return slices.Contains(d.peers, other)
}

// Ordinal is the device's CUDA ordinal.
func (d *Device) Ordinal() int { return d.ordinal }

// CUDAContext is the device's context handle, for driver calls that name
// another device's context (peer copies); make them inside Do.
func (d *Device) CUDAContext() cu.CUContext { return d.c.ctx }

// Name is the device's product name, e.g. "NVIDIA H200".
func (d *Device) Name() string { return d.name }

// computeCapability is the device's compute capability (9, 0 for Hopper).
func (d *Device) computeCapability() (major, minor int) { return d.major, d.minor }

// Multiprocessors is the number of streaming multiprocessors.
func (d *Device) Multiprocessors() int { return d.sms }

// totalMemory is the device memory in bytes.
func (d *Device) totalMemory() int64 { return d.totalMem }

// String describes the device: "NVIDIA H200 (sm_90, 139 GiB)".
func (d *Device) String() string {
	return fmt.Sprintf("%s (sm_%d%d, %d GiB)", d.name, d.major, d.minor, d.totalMem>>30)
}

// FreeMemory returns the free and total device memory in bytes.
func (d *Device) FreeMemory() (free, total int64, err error) {
	err = d.Do(func(c *Ctx) error {
		free, total, err = c.MemInfo()
		return err
	})
	return free, total, err
}

// Available reports whether a GPU can be used, and if not why (the NVIDIA
// driver library is missing, or it sees no device); when it can, reason
// names device 0.
func Available() (ok bool, reason string) {
	if err := driverReady(); err != nil {
		return false, err.Error()
	}
	count, err := cu.NumDevices()
	if err != nil {
		return false, fmt.Sprintf("gpu: cannot count CUDA devices: %v", err)
	}
	if count == 0 {
		return false, "gpu: no CUDA device found"
	}
	dev, err := cu.GetDevice(0)
	if err != nil {
		return false, fmt.Sprintf("gpu: device 0: %v", err)
	}
	name, err := dev.Name()
	if err != nil {
		return false, fmt.Sprintf("gpu: device 0 name: %v", err)
	}
	return true, name
}
