package cli

import (
	"log/slog"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/pipeline/compute"
)

// confineDevices tells the backends which devices a compute process will
// use, when compute.devices names them and the run may use a GPU: the
// driver then starts those alone (about 0.2 s a device it no longer
// starts; backend.Factory.Confine). The command does it, not compute.Run:
// a program that calls Run may open other devices later, and the
// confinement holds for the whole process. A confinement that fails only
// costs that time, so it is logged, not fatal.
func confineDevices(cfg *compute.Config, log *slog.Logger) {
	if cfg.Device.Devices == nil || cfg.Backend == backend.CPU {
		return
	}
	for _, name := range backend.Names() {
		f, _ := backend.Lookup(name)
		if f.Confine == nil {
			continue
		}
		what, done, err := f.Confine(cfg.Device.Devices)
		switch {
		case err != nil:
			log.Warn("devices not confined", "backend", name, "err", err)
		case done:
			log.Info("devices confined: the driver starts only those compute.devices names", "backend", name, "visible", what)
		}
	}
}
