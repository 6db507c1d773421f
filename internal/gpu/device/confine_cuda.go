//go:build cuda

package device

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"

	"gorgonia.org/cu"
)

// confined is the process's confinement (Confine), read by every call that
// turns an ordinal into a driver device. Its lock also orders Confine
// before the driver's start (driverReady), which reads VisibleDevicesEnv.
var confined struct {
	mu      sync.Mutex
	started bool // the driver has started: too late to confine
	c       confinement
	active  bool
}

// Confine hides from the CUDA driver every GPU but ordinals, through
// VisibleDevicesEnv, for a process that will open no other device: the
// driver then starts those alone (see confineTo for what that saves).
// Ordinals keep meaning what they meant: Open, the backend's facts and
// its logs name devices as before. It does nothing, and says so, once the
// driver has started, or when there is nothing to confine (confineTo);
// value is the variable's new value when it did something. Only a
// process's owner (a command) calls it, once, before anything touches a
// GPU: it changes the environment of the whole process.
func Confine(ordinals []int) (value string, ok bool, err error) {
	confined.mu.Lock()
	defer confined.mu.Unlock()
	if confined.started || confined.active {
		return "", false, nil
	}
	current, set := os.LookupEnv(VisibleDevicesEnv)
	c, ok := confineTo(ordinals, current, set)
	if !ok {
		return "", false, nil
	}
	if err := os.Setenv(VisibleDevicesEnv, c.value); err != nil {
		return "", false, fmt.Errorf("gpu: setting %s: %w", VisibleDevicesEnv, err)
	}
	confined.c, confined.active = c, true
	return c.value, true, nil
}

// markDriverStarted records that the driver has read VisibleDevicesEnv:
// Confine can no longer change what it shows.
func markDriverStarted() {
	confined.mu.Lock()
	confined.started = true
	confined.mu.Unlock()
}

// driverOrdinal returns the driver's ordinal of the process's ordinal, and
// false for one the confinement hid (no such device, as far as this
// process is concerned).
func driverOrdinal(ordinal int) (int, bool) {
	confined.mu.Lock()
	defer confined.mu.Unlock()
	if !confined.active {
		return ordinal, true
	}
	d, ok := confined.c.driver[ordinal]
	return d, ok
}

// processOrdinal returns the process's ordinal of the driver's ordinal d.
func processOrdinal(d int) int {
	confined.mu.Lock()
	defer confined.mu.Unlock()
	if !confined.active || d >= len(confined.c.ordinals) {
		return d
	}
	return confined.c.ordinals[d]
}

// confinedOrdinals lists the ordinals the process is confined to ("1,3"),
// or "" when it is not.
func confinedOrdinals() string {
	confined.mu.Lock()
	defer confined.mu.Unlock()
	if !confined.active {
		return ""
	}
	names := make([]string, len(confined.c.ordinals))
	for i, o := range confined.c.ordinals {
		names[i] = strconv.Itoa(o)
	}
	return strings.Join(names, ",")
}

// Lookup returns the driver's device of the process's ordinal, or an
// error naming the ordinal when there is no such device. Every use of an
// ordinal goes through it, so that a confined process (Confine) names its
// devices as an unconfined one does.
func Lookup(ordinal int) (cu.Device, error) {
	if err := driverReady(); err != nil {
		return 0, err
	}
	count, err := cu.NumDevices()
	if err != nil {
		return 0, fmt.Errorf("gpu: counting devices: %w", err)
	}
	d, ok := driverOrdinal(ordinal)
	if !ok || ordinal < 0 || d >= count {
		return 0, fmt.Errorf("gpu: device %d does not exist (%d devices)%s", ordinal, count, visibleDevices())
	}
	dev, err := cu.GetDevice(d)
	if err != nil {
		return 0, fmt.Errorf("gpu: device %d: %w", ordinal, err)
	}
	return dev, nil
}
