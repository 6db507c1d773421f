//go:build cuda

package allpairs

import (
	"fmt"

	"github.com/pathflow/pathflow/internal/gpu/device"
)

// layoutAllPairs places p on b's devices (see layoutAllPairs): each
// context's budget is its GPU's free memory shared among the contexts
// listed on that GPU, capped by WithMemoryLimit.
func (b *unit) layoutAllPairs(p allPairsPlan) (allPairsLayout, error) {
	devs := b.devices()
	contexts := map[int]int64{}
	for _, d := range devs {
		contexts[d.dev.Ordinal()]++
	}
	budget := int64(-1)
	for _, d := range devs {
		free, _, err := d.dev.FreeMemory()
		if err != nil {
			return allPairsLayout{}, fmt.Errorf("gpu: device %d: %w", d.dev.Ordinal(), err)
		}
		share := free / contexts[d.dev.Ordinal()]
		if budget < 0 || share < budget {
			budget = share
		}
	}
	if limit := b.opts.MemoryLimit; limit > 0 {
		budget = min(budget, limit)
	}
	return layoutAllPairs(p, len(devs), budget, device.HostAvailable())
}
