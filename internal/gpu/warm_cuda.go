//go:build cuda

package gpu

import (
	"errors"
	"slices"
	"sync"

	"github.com/pathflow/pathflow/internal/gpu/device"
)

// A CUDA context costs a few tenths of a second to create (the driver's
// initialisation, the context itself), time in which the host could be
// loading the graph. warm opens devices ahead of New and parks them here;
// New takes a parked device of the ordinal it needs before it opens one.
// Contexts are a process's own resource, so the pool is the process's too.
var parked struct {
	mu      sync.Mutex
	devices []*device.Device
}

// warm opens a context on each of ordinals at once (nil: device 0, the
// primary of every plan that opens the visible devices) and parks them
// for New. giveBack closes those New did not take. The error joins those
// of the devices that did not open; the others are parked all the same.
func warm(ordinals []int) (giveBack func() error, err error) {
	if len(ordinals) == 0 {
		ordinals = []int{0}
	}
	opened, err := openDevices(ordinals)
	kept := slices.DeleteFunc(opened, func(d *device.Device) bool { return d == nil })
	parked.mu.Lock()
	parked.devices = append(parked.devices, kept...)
	parked.mu.Unlock()
	return func() error { return closeParked(kept) }, err
}

// takeParked removes a parked device of ordinal from the pool and returns
// it; nil when none is parked.
func takeParked(ordinal int) *device.Device {
	parked.mu.Lock()
	defer parked.mu.Unlock()
	for i, d := range parked.devices {
		if d.Ordinal() == ordinal {
			parked.devices = slices.Delete(parked.devices, i, i+1)
			return d
		}
	}
	return nil
}

// closeParked closes those of devices still parked (New took the others,
// which their Backend closes).
func closeParked(devices []*device.Device) error {
	parked.mu.Lock()
	var idle []*device.Device
	parked.devices = slices.DeleteFunc(parked.devices, func(d *device.Device) bool {
		if slices.Contains(devices, d) {
			idle = append(idle, d)
			return true
		}
		return false
	})
	parked.mu.Unlock()
	var errs []error
	for _, d := range idle {
		errs = append(errs, d.Close())
	}
	return errors.Join(errs...)
}

// openDevices opens a context on each of ordinals, all at once: each
// context is created on its own thread (device.Open), and the driver
// creates contexts on distinct GPUs side by side. opened[i] is nil where
// ordinals[i] failed; err joins the failures.
func openDevices(ordinals []int) (opened []*device.Device, err error) {
	opened = make([]*device.Device, len(ordinals))
	errs := make([]error, len(ordinals))
	var wg sync.WaitGroup
	for i, ordinal := range ordinals {
		wg.Add(1)
		go func() {
			defer wg.Done()
			opened[i], errs[i] = device.Open(ordinal)
		}()
	}
	wg.Wait()
	return opened, errors.Join(errs...)
}
