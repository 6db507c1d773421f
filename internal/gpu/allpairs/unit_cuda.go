//go:build cuda

package allpairs

import "github.com/pathflow/pathflow/internal/gpu/device"

// unit is one device a run may use: its staging and device, the run's
// options, and (on the primary unit) the other devices of the run.
type unit struct {
	st     *device.Stager
	dev    *device.Device
	opts   Options
	others []*unit
}

// newUnits returns the primary unit of gpus (the first), the others
// attached to it.
func newUnits(gpus []*device.Stager, opts Options) *unit {
	all := make([]*unit, len(gpus))
	for i, g := range gpus {
		all[i] = &unit{st: g, dev: g.Device(), opts: opts}
	}
	all[0].others = all[1:]
	return all[0]
}

// devices is every unit of the run, the primary first.
func (b *unit) devices() []*unit { return append([]*unit{b}, b.others...) }
