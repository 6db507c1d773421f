//go:build cuda

package allpairs

import (
	"errors"
	"fmt"

	"gorgonia.org/cu"
)

// maxProgressMarks bounds the events in flight: when the host runs that
// far ahead of the device, rounds go unmarked until one completes.
const maxProgressMarks = 8

// launchProgress reports a launch loop's progress as the device completes
// it, never waiting for the device: after a round's kernels the loop
// records an event on their stream, and each later mark (and the final
// poll) reports the rounds of the events that have completed. Kernel
// launches return before the kernels run, so counting launches would
// report the end long before it. Use it on the device's thread.
type launchProgress struct {
	report  func(done, total int64)
	total   int64
	pending []progressMark
	// err is the first failure to destroy an event, returned by finish.
	err error
}

// progressMark is an event recorded behind the work of done units.
type progressMark struct {
	ev   cu.Event
	done int64
}

// mark records that done units are enqueued on s. It does nothing
// without a report function.
func (p *launchProgress) mark(done int64, s cu.Stream) error {
	if p.report == nil {
		return nil
	}
	p.poll()
	if len(p.pending) >= maxProgressMarks {
		return nil
	}
	ev, err := cu.MakeEvent(cu.DisableTiming)
	if err != nil {
		return fmt.Errorf("gpu: creating a progress event: %w", err)
	}
	if err := ev.Record(s); err != nil {
		return errors.Join(fmt.Errorf("gpu: recording a progress event: %w", err), cu.DestroyEvent(&ev))
	}
	p.pending = append(p.pending, progressMark{ev: ev, done: done})
	return nil
}

// poll reports the marks whose events have completed, oldest first.
func (p *launchProgress) poll() {
	for len(p.pending) > 0 && p.pending[0].ev.Query() == nil {
		p.report(p.pending[0].done, p.total)
		if err := cu.DestroyEvent(&p.pending[0].ev); err != nil && p.err == nil {
			p.err = fmt.Errorf("gpu: destroying a progress event: %w", err)
		}
		p.pending = p.pending[1:]
	}
}

// finish reports the whole total (call it once the work is known done)
// and destroys the events still pending.
func (p *launchProgress) finish(done bool) error {
	for i := range p.pending {
		if err := cu.DestroyEvent(&p.pending[i].ev); err != nil && p.err == nil {
			p.err = fmt.Errorf("gpu: destroying a progress event: %w", err)
		}
	}
	p.pending = nil
	if done && p.report != nil {
		p.report(p.total, p.total)
	}
	return p.err
}
