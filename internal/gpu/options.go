package gpu

import (
	"runtime"

	"github.com/pathflow/pathflow/internal/gpu/allpairs"
	"github.com/pathflow/pathflow/internal/gpu/device"
)

// Option configures New.
type Option func(*options)

type options struct {
	// devices are the ordinals to open; the first is the primary device.
	devices []int
	// memoryLimit caps the device memory a run plans for (0: none).
	memoryLimit int64
	parents     allpairs.ParentStrategy
	lookahead   bool
	// workers is the number of host goroutines for parent repairs.
	workers int
	// staging shapes the pinned blocks results are copied into (see
	// WithStaging).
	staging device.StagingOptions
}

// Staging defaults: at least four blocks, so that the copy engine fills
// one while the consumer encodes up to two and the producer hands one over,
// each of about 64 MiB of distances (and as much again of parents): large
// enough that a copy runs at the bus rate, small enough that pinning them
// is cheap.
const (
	DefaultStagingBlocks = 4
	DefaultStagingBytes  = 64 << 20
)

// WithDevice selects one GPU by ordinal (default 0).
func WithDevice(ordinal int) Option { return func(o *options) { o.devices = []int{ordinal} } }

// WithDevices selects the GPUs by ordinal, the first being the primary one
// (where single-device work runs). An ordinal may appear twice: each entry
// gets a context of its own, which exercises the multi-device code on one
// GPU. nil or empty selects every visible device (CUDA_VISIBLE_DEVICES
// applies, as for any CUDA program).
func WithDevices(ordinals []int) Option {
	return func(o *options) { o.devices = append([]int(nil), ordinals...) }
}

// WithMemoryLimit caps the device memory an all-pairs run plans to use on
// each device, in bytes (0: the device's free memory). A matrix that does
// not fit under it runs out of core; tests use it to force that path on
// small graphs.
func WithMemoryLimit(bytes int64) Option { return func(o *options) { o.memoryLimit = max(bytes, 0) } }

// WithParentStrategy sets how the fast variant builds predecessors
// (default allpairs.ParentsAuto).
func WithParentStrategy(s allpairs.ParentStrategy) Option { return func(o *options) { o.parents = s } }

// WithLookahead turns the fast variant's two-stream schedule on (the
// default) or off: on, each round's pivot phases run on a second stream
// while the previous round's bulk finishes; off, all phases run in order
// on one stream (for comparison).
func WithLookahead(on bool) Option { return func(o *options) { o.lookahead = on } }

// WithWorkers sets how many host goroutines mend parent rows of graphs
// with weights <= 0 (default and values below 1: runtime.GOMAXPROCS(0)).
func WithWorkers(n int) Option {
	return func(o *options) {
		if n < 1 {
			n = runtime.GOMAXPROCS(0)
		}
		o.workers = n
	}
}

// WithStaging sets the pinned host blocks results stream through: at most
// blocks of them (at least 2, so that one is copied while another is
// handed over), each holding as many rows as fit in bytes of distances
// (and as much again of parents), at least one row.
func WithStaging(blocks int, bytes int64) Option {
	return func(o *options) {
		o.staging = device.StagingOptions{Blocks: max(blocks, 2), Bytes: max(bytes, 4), Fixed: true}
	}
}
