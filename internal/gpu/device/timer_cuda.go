//go:build cuda

package device

import (
	"errors"
	"fmt"
	"time"

	"gorgonia.org/cu"
)

// Timer measures device time between two CUDA events on the default
// stream: what the GPU spent, without host-side launch overhead.
type Timer struct {
	start, stop cu.Event
}

// NewTimer creates a timer's two events; Close destroys them.
func (c *Ctx) NewTimer() (*Timer, error) {
	start, err := cu.MakeEvent(cu.DefaultEvent)
	if err != nil {
		return nil, fmt.Errorf("gpu: creating an event: %w", err)
	}
	stop, err := cu.MakeEvent(cu.DefaultEvent)
	if err != nil {
		return nil, errors.Join(fmt.Errorf("gpu: creating an event: %w", err), cu.DestroyEvent(&start))
	}
	return &Timer{start: start, stop: stop}, nil
}

// Start records the start event after the work launched so far.
func (t *Timer) Start() error {
	if err := t.start.Record(cu.Stream{}); err != nil {
		return fmt.Errorf("gpu: recording an event: %w", err)
	}
	return nil
}

// Stop records the stop event after the work launched so far.
func (t *Timer) Stop() error {
	if err := t.stop.Record(cu.Stream{}); err != nil {
		return fmt.Errorf("gpu: recording an event: %w", err)
	}
	return nil
}

// Elapsed waits for the stop event and returns the time between the events.
func (t *Timer) Elapsed() (time.Duration, error) {
	if err := t.stop.Synchronize(); err != nil {
		return 0, fmt.Errorf("gpu: waiting for an event: %w", err)
	}
	ms, err := t.start.Elapsed(t.stop)
	if err != nil {
		return 0, fmt.Errorf("gpu: reading event times: %w", err)
	}
	return time.Duration(ms * float64(time.Millisecond)), nil
}

// Close destroys the events.
func (t *Timer) Close() error {
	err1 := cu.DestroyEvent(&t.start)
	err2 := cu.DestroyEvent(&t.stop)
	if err1 != nil {
		return fmt.Errorf("gpu: destroying an event: %w", err1)
	}
	if err2 != nil {
		return fmt.Errorf("gpu: destroying an event: %w", err2)
	}
	return nil
}
