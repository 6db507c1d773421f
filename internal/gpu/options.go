package gpu

import "runtime"

// ParentStrategy chooses how the fast variant builds the predecessor matrix
// of a graph whose weights are all positive. (With zero or negative
// weights, the tiled variants always derive parents by a search over tight
// arcs, and naive and row always track them; see chooseParents.)
type ParentStrategy int

const (
	// ParentsAuto derives parents from the distances when the graph is
	// sparse (m * RecoverMaxDensity <= n * n), else packs them into the
	// phase-3 distances when every distance is below PackedDistanceLimit,
	// else tracks them.
	ParentsAuto ParentStrategy = iota
	// ParentsTrack updates a cell's parent with its distance in every
	// kernel: about three times the phase-3 instructions per relaxation.
	ParentsTrack
	// ParentsRecover computes distances only, then gives each (s, v) the
	// first in-arc u -> v with dist[s][u] + w == dist[s][v]: O(n * m) work
	// instead of slowing down the O(n^3) kernels.
	ParentsRecover
)

// RecoverMaxDensity: ParentsAuto derives parents when m * RecoverMaxDensity
// <= n * n, i.e. the average in-degree is at most n / RecoverMaxDensity.
// Measured on an H200 at n = 16384 (docs/gpu-floyd-warshall.md): plain
// tracking adds about 0.70 s, packing about 0.055 s, the derivation about
// 6 ns per arc and source.
const RecoverMaxDensity = 32

// String is the strategy's flag value: auto, track or recover.
func (s ParentStrategy) String() string {
	switch s {
	case ParentsAuto:
		return "auto"
	case ParentsTrack:
		return "track"
	case ParentsRecover:
		return "recover"
	}
	return "ParentStrategy(?)"
}

// Option configures New.
type Option func(*options)

type options struct {
	// devices are the ordinals to open; the first is the primary device.
	devices []int
	// memoryLimit caps the device memory a run plans for (0: none).
	memoryLimit int64
	parents     ParentStrategy
	lookahead   bool
	// workers is the number of host goroutines for parent repairs.
	workers int
	// stagingBlocks and stagingBytes shape the pinned blocks results are
	// copied into (see WithStaging).
	stagingBlocks int
	stagingBytes  int64
	// stagingFixed: WithStaging set them, so the batched search keeps
	// them rather than widening its blocks for wide rows.
	stagingFixed bool
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

// stagingBlocksFor is the default pool for a host of workers cores. A block
// goes back to the pool only when every part file over its rows is
// encoded, so with few blocks most writers of a large host wait for one:
// on 16 cores, four blocks kept about ten of them busy. One block per two
// cores keeps them all encoding.
func stagingBlocksFor(workers int) int { return max(DefaultStagingBlocks, workers/2) }

func defaultOptions() options {
	workers := runtime.GOMAXPROCS(0)
	return options{
		devices: []int{0}, parents: ParentsAuto, lookahead: true,
		workers:       workers,
		stagingBlocks: stagingBlocksFor(workers), stagingBytes: DefaultStagingBytes,
	}
}

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
// (default ParentsAuto).
func WithParentStrategy(s ParentStrategy) Option { return func(o *options) { o.parents = s } }

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
		o.stagingBlocks, o.stagingBytes = max(blocks, 2), max(bytes, 4)
		o.stagingFixed = true
	}
}
