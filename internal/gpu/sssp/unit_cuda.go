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
	// share is the host-side planning of the request, done once for
	// every device that serves it.
	share *requestShare
}

// newUnit is the unit of gpu; workers below 1 count as 1.
func newUnit(gpu *device.Stager, workers int) *unit {
	return &unit{st: gpu, dev: gpu.Device(), workers: max(workers, 1), share: &requestShare{}}
}

// requestShare is the host-side planning of one request that every
// device serving it would otherwise repeat: the graph's checks and search
// plan (planSSSP reads every offset and arc), and a ch run's sweep plan
// (its selection, and the columns' in-arcs found by scanning every arc).
// On four H200s, a 10,000 x 10,000 ch table's four plans took 3.6 of its
// 14.0 cpu-s (the in-arcs 1.76, the graph's checks and weight range 1.13,
// the selection 0.75), three of them repeats.
type requestShare struct {
	plan  shared[ssspPlan]
	sweep shared[*chSweep]
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
