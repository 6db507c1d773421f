package cpu

import "github.com/pathflow/pathflow/internal/backend"

// init registers the CPU backend as "cpu": it runs on any machine, so a
// program that imports this package can always fall back to it.
func init() {
	backend.Register(backend.Factory{
		Name:      Name,
		Available: func() (bool, string) { return true, "the CPU" },
		Choose:    Choose,
		Open: func(o backend.Options) (backend.Backend, error) {
			return New(o.Workers), nil
		},
	})
}
