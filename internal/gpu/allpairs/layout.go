package allpairs

import (
	"errors"
	"fmt"

	"github.com/pathflow/pathflow/internal/gpu/device"
	"github.com/pathflow/pathflow/internal/gpu/spread"
)

// placement is where an all-pairs matrix lives while it is computed.
type placement int

const (
	// onOneDevice: the whole matrix on the primary device, any variant.
	onOneDevice placement = iota
	// inRowSlabs: the fast variant on several devices, each holding a
	// contiguous block of whole tile rows; the owner of each round's pivot
	// rows sends them to the others.
	inRowSlabs
	// outOfCore: the matrix in page-locked host memory; one device relaxes
	// super-tiles staged to it (see outOfCoreRun).
	outOfCore
)

// String names the placement in logs.
func (p placement) String() string {
	return [...]string{"one device", "row slabs", "out of core"}[p]
}

// allPairsLayout is an all-pairs plan placed on the devices: decided on
// the host, from the device count and memory, before anything is
// allocated.
type allPairsLayout struct {
	allPairsPlan
	place placement
	// slabs are the tile rows of each device in row slabs: device d owns
	// tile rows slabs[d] .. slabs[d+1]-1. One device owns them all
	// otherwise.
	slabs []int64
	// super is the edge of an out-of-core run's super-tiles, in vertices
	// (a multiple of the tile; the last super-tile may be smaller).
	super int64
	// deviceBytes is the memory the busiest device needs; hostBytes the
	// page-locked host memory (out of core only).
	deviceBytes, hostBytes int64
}

// layoutAllPairs places p on devices devices (an entry per context, so a
// GPU listed twice counts twice), each with budget bytes of memory usable,
// and hostBudget bytes of host memory (0: unknown, not checked):
//
//   - a variant other than fast, or one device whose budget holds the
//     matrix: the whole matrix on the primary device;
//   - several devices whose slabs fit: row slabs, on every device (listing
//     several devices asks for them);
//   - else the primary device alone if the matrix fits it;
//   - else out of core on the primary device, with the largest super-tile
//     that fits the budget.
//
// Row slabs and out-of-core runs derive parents from the distances (the
// kernels they share carry none), so a plan that tracks or packs them
// switches to deriving. The error names the sizes when nothing fits.
func layoutAllPairs(p allPairsPlan, devices int, budget, hostBudget int64) (allPairsLayout, error) {
	l := allPairsLayout{allPairsPlan: p, place: onOneDevice, slabs: []int64{0, p.pitch / p.tile}}
	if p.n == 0 {
		return l, nil
	}
	one := p.deviceBytes()
	if p.variant != VariantFast || (devices <= 1 && one <= budget) {
		l.deviceBytes = one
		if one > budget {
			return l, &device.OutOfMemoryError{What: p.describe(), Need: one, Free: budget, Total: budget}
		}
		return l, nil
	}
	l.allPairsPlan = p.deriving()
	if devices > 1 {
		l.slabs = spread.SplitEvenly(p.pitch/p.tile, devices)
		l.deviceBytes = l.slabBytes(l.slabs)
		if l.deviceBytes <= budget {
			l.place = inRowSlabs
			return l, nil
		}
		l.slabs = []int64{0, p.pitch / p.tile}
	}
	if one <= budget {
		// Slabs cost a pivot panel each; one device may still hold it all.
		l.allPairsPlan, l.deviceBytes = p, one
		return l, nil
	}
	l.place = outOfCore
	l.super = l.superTileFor(budget)
	l.hostBytes = p.pitch * p.pitch * 4
	if l.super == 0 {
		return l, fmt.Errorf("gpu: %s needs %s of device memory in core and at least %s out of core (%d-vertex super-tiles), over the %s usable per device: %w",
			p.describe(), device.FormatBytes(one), device.FormatBytes(l.outOfCoreBytes(p.tile)), p.tile, device.FormatBytes(budget), errTooLarge)
	}
	l.deviceBytes = l.outOfCoreBytes(l.super)
	if hostBudget > 0 && l.hostBytes > hostBudget {
		return l, fmt.Errorf("gpu: %s does not fit the %s usable per device, and out of core its %s matrix does not fit the %s of available host memory: %w",
			p.describe(), device.FormatBytes(budget), device.FormatBytes(l.hostBytes), device.FormatBytes(hostBudget), errTooLarge)
	}
	return l, nil
}

// errTooLarge is wrapped by layoutAllPairs's errors when a matrix fits
// nowhere.
var errTooLarge = errors.New("gpu: matrix too large")

// deriving is p with parents derived from the distances, if it has any.
func (p allPairsPlan) deriving() allPairsPlan {
	if p.method == parentsTracked || p.method == parentsPacked {
		p.method = parentsFirstTight
		if !p.positive {
			p.method = parentsSearch
		}
	}
	return p
}

// graphBytes is the device memory beside the matrix: the arc list, the
// reverse CSR when parents are derived, the negative-cycle flags.
func (p allPairsPlan) graphBytes() int64 {
	b := p.m*12 + 8
	if p.derives() {
		b += (p.n+1)*8 + p.m*8
	}
	return b
}

// slabBytes is the memory of the device with the most tile rows: its
// rows (twice with parents), a received pivot panel and the graph.
func (l allPairsLayout) slabBytes(slabs []int64) int64 {
	var most int64
	for d := range len(slabs) - 1 {
		most = max(most, slabs[d+1]-slabs[d])
	}
	rows := most * l.tile
	b := rows*l.pitch*4 + l.tile*l.pitch*4 + l.graphBytes()
	if l.parents {
		b += rows * l.pitch * 4
	}
	return b
}

// outOfCoreBytes is the device memory of an out-of-core run with
// super-tiles of edge super: the pivot super-row and super-column (the
// latter holds a stripe's parents in the final pass), three super-tiles
// (one relaxed, one arriving, one leaving) and the graph.
func (l allPairsLayout) outOfCoreBytes(super int64) int64 {
	return 2*super*l.pitch*4 + 3*super*super*4 + l.graphBytes()
}

// superTileFor is the largest super-tile edge (a multiple of the tile, at
// most the padded vertex count) whose run fits budget, or 0.
func (l allPairsLayout) superTileFor(budget int64) int64 {
	var best int64
	for b := l.tile; b <= l.pitch; b += l.tile {
		if l.outOfCoreBytes(b) > budget {
			break
		}
		best = b
	}
	return best
}

// superTiles is the number of super-tiles along an edge of the matrix.
func (l allPairsLayout) superTiles() int64 { return (l.pitch + l.super - 1) / l.super }

// superSpan is super-tile s's first vertex and its edge.
func (l allPairsLayout) superSpan(s int64) (first, size int64) {
	first = s * l.super
	return first, min(l.super, l.pitch-first)
}

// describe adds the placement to the plan's description.
func (l allPairsLayout) describe() string {
	switch l.place {
	case inRowSlabs:
		return fmt.Sprintf("%s in row slabs on %d devices", l.allPairsPlan.describe(), len(l.slabs)-1)
	case outOfCore:
		return fmt.Sprintf("%s out of core (%d-vertex super-tiles)", l.allPairsPlan.describe(), l.super)
	}
	return l.allPairsPlan.describe()
}
