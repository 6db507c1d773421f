//go:build cuda

package device

import (
	"errors"
	"fmt"

	"gorgonia.org/cu"
)

// Stream is a CUDA stream of a Ctx with one event for ordering against
// other streams (Mark, WaitFor). Streams made here are blocking: work on
// them starts after earlier work on the default stream, and later
// default-stream work (Ctx copies, Timer events, launches with a zero
// Config.Stream) waits for them, so only work between two default-stream
// operations overlaps.
type Stream struct {
	s    cu.Stream
	mark cu.Event
}

// NewStream creates a stream; urgent ones get the device's highest
// priority, so their blocks are scheduled first as multiprocessors free up.
func (c *Ctx) NewStream(urgent bool) (*Stream, error) {
	priority := 0
	if urgent {
		_, greatest, err := cu.StreamPriorityRange()
		if err != nil {
			return nil, fmt.Errorf("gpu: stream priorities: %w", err)
		}
		priority = greatest
	}
	return withMark(cu.MakeStreamWithPriority(priority, cu.DefaultStream))
}

// NewCopyingStream creates a stream that does not synchronise with the
// default stream, for copies that overlap kernels; order it with
// Mark and WaitFor.
func (c *Ctx) NewCopyingStream() (*Stream, error) {
	return withMark(cu.MakeStream(cu.NonBlocking))
}

// withMark wraps a just created stream (or its creation error) with the
// event that Mark records, destroying the stream if the event fails.
func withMark(s cu.Stream, err error) (*Stream, error) {
	if err != nil {
		return nil, fmt.Errorf("gpu: creating a stream: %w", err)
	}
	mark, err := cu.MakeEvent(cu.DisableTiming)
	if err != nil {
		return nil, errors.Join(fmt.Errorf("gpu: creating an event: %w", err), s.Destroy())
	}
	return &Stream{s: s, mark: mark}, nil
}

// CUDA is the stream to put in a kernels.Config.
func (s *Stream) CUDA() cu.Stream { return s.s }

// Mark records the point after the work launched on s so far.
func (s *Stream) Mark() error {
	if err := s.mark.Record(s.s); err != nil {
		return fmt.Errorf("gpu: recording an event: %w", err)
	}
	return nil
}

// WaitFor makes work launched on s from now on wait for o's last Mark (no
// wait when o was never marked).
func (s *Stream) WaitFor(o *Stream) error {
	if err := s.s.Wait(o.mark, 0); err != nil {
		return fmt.Errorf("gpu: ordering streams: %w", err)
	}
	return nil
}

// Close releases the stream and its event; work already launched on it
// still completes.
func (s *Stream) Close() error {
	err1 := cu.DestroyEvent(&s.mark)
	err2 := s.s.Destroy()
	if err1 != nil {
		return fmt.Errorf("gpu: destroying an event: %w", err1)
	}
	if err2 != nil {
		return fmt.Errorf("gpu: destroying a stream: %w", err2)
	}
	return nil
}
