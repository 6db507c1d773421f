//go:build cuda

package allpairs

import (
	"errors"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/gpu/device"
	"github.com/pathflow/pathflow/internal/graph"
)

// FillMatrices writes v over a run on one device's distance and parent
// matrices, so that a cell no kernel writes cannot pass for a result.
func (r *Run) FillMatrices(v int32) error {
	return r.dev.Do(func(c *device.Ctx) error {
		return errors.Join(c.FillInt32(r.dist, v), c.FillInt32(r.parent, v))
	})
}

// PrepareOutOfCore is Prepare forced out of core with super-tiles of
// edge super, whatever the graph's size, on gpus[0], deriving parents
// with ParentsRecover.
func PrepareOutOfCore(gpus []*device.Stager, opts Options, e *graph.EdgeList, withParents bool, super int64) (*Run, error) {
	p, err := planAllPairs(e, backend.Algorithm{Variant: VariantFast}, withParents, ParentsRecover)
	if err != nil {
		return nil, err
	}
	l := allPairsLayout{allPairsPlan: p.deriving(), place: outOfCore, slabs: []int64{0, p.pitch / p.tile}, super: min(super, p.pitch)}
	l.deviceBytes, l.hostBytes = l.outOfCoreBytes(l.super), p.pitch*p.pitch*4
	b := newUnits(gpus, opts)
	r := &Run{b: b, dev: b.dev, plan: l.allPairsPlan, layout: l}
	if r.spread, err = prepareOutOfCore(b, l, e); err != nil {
		return nil, err
	}
	return r, nil
}
