//go:build cuda

package sssp

import "github.com/pathflow/pathflow/internal/gpu/device"

// unit is one device searches run on: its staging and device, and how
// many host goroutines mend parent rows.
type unit struct {
	st      *device.Stager
	dev     *device.Device
	workers int
	// feed, when several devices serve one request, hands this device
	// its blocks of the request's rows (device.RowFeed); nil when it
	// serves every row itself.
	feed *device.RowFeed
}

// newUnit is the unit of gpu; workers below 1 count as 1.
func newUnit(gpu *device.Stager, workers int) *unit {
	return &unit{st: gpu, dev: gpu.Device(), workers: max(workers, 1)}
}

// fed returns shape taking its rows from the unit's feed, if it has one.
func (b *unit) fed(shape device.StagingShape) device.StagingShape {
	if b.feed == nil {
		return shape
	}
	return shape.Fed(b.feed)
}

// devices is how many devices serve the unit's request: its feed's, or 1.
func (b *unit) devices() int {
	if b.feed == nil {
		return 1
	}
	return b.feed.Takers()
}
