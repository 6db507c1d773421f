//go:build cuda

package gpu

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/gpu/allpairs"
	"github.com/pathflow/pathflow/internal/gpu/device"
	"github.com/pathflow/pathflow/internal/gpu/sssp"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/results"
)

// Backend is the CUDA implementation of backend.Backend. It owns one
// Device, the primary, and one Backend per other selected device
// (WithDevices); its methods may be called from several goroutines (work
// on a device runs one call at a time).
type Backend struct {
	// gpus are the selected devices with their staging, the primary first;
	// peers describes the links between them.
	gpus  []*device.Stager
	opts  options
	peers string
}

var _ backend.Backend = (*Backend)(nil)

// New opens the selected GPUs (device 0 unless WithDevice or WithDevices
// say otherwise), one context each, and enables peer access between
// distinct GPUs that support it. A device the factory's Warm opened is
// taken as it is; the others are opened all at once.
func New(opts ...Option) (*Backend, error) {
	o := defaultOptions()
	for _, opt := range opts {
		opt(&o)
	}
	ordinals, err := device.ResolveDevices(o.devices)
	if err != nil {
		return nil, err
	}
	// The staging pool is shared out: each device streams its own rows.
	o.staging.Blocks = max(2, (o.staging.Blocks+len(ordinals)-1)/len(ordinals))
	b := &Backend{opts: o}
	devs, err := takeOrOpen(ordinals)
	for _, dev := range devs {
		if dev != nil {
			b.gpus = append(b.gpus, device.NewStager(dev, o.staging))
		}
	}
	if err != nil {
		return nil, errors.Join(err, b.Close())
	}
	if b.peers, err = device.EnablePeerAccess(devs); err != nil {
		return nil, errors.Join(err, b.Close())
	}
	return b, nil
}

// takeOrOpen returns a device for each of ordinals, in their order: a
// parked one (warm) where there is one, else one opened now, those all
// at once. Where some fail, the others are returned with the error, for
// the caller to close.
func takeOrOpen(ordinals []int) ([]*device.Device, error) {
	devs := make([]*device.Device, len(ordinals))
	var missing []int // indices into ordinals
	for i, ordinal := range ordinals {
		if devs[i] = takeParked(ordinal); devs[i] == nil {
			missing = append(missing, i)
		}
	}
	if len(missing) == 0 {
		return devs, nil
	}
	wanted := make([]int, len(missing))
	for k, i := range missing {
		wanted[k] = ordinals[i]
	}
	opened, err := openDevices(wanted)
	for k, i := range missing {
		devs[i] = opened[k]
	}
	return devs, err
}

// Name is "gpu".
func (b *Backend) Name() string { return Name }

// Device describes the GPU, e.g. "NVIDIA H200 (sm_90, 139 GiB)", or
// with several: "2 devices: [0] NVIDIA H200 (sm_90, 139 GiB), [1] ...;
// peer access 0<->1".
func (b *Backend) Device() string {
	if len(b.gpus) == 1 {
		return b.GPU().String()
	}
	names := make([]string, len(b.gpus))
	for i, g := range b.gpus {
		names[i] = fmt.Sprintf("[%d] %s", g.Device().Ordinal(), g.Device())
	}
	return fmt.Sprintf("%d devices: %s; %s", len(b.gpus), strings.Join(names, ", "), b.peers)
}

// GPU is the backend's primary device.
func (b *Backend) GPU() *device.Device { return b.gpus[0].Device() }

// Stagers are the selected devices with their result staging, the primary
// first, for the algorithm packages' entry points.
func (b *Backend) Stagers() []*device.Stager { return b.gpus }

// AllPairsOptions are the backend's options for all-pairs runs.
func (b *Backend) AllPairsOptions() allpairs.Options {
	return allpairs.Options{Parents: b.opts.parents, Lookahead: b.opts.lookahead, MemoryLimit: b.opts.memoryLimit}
}

// PrepareAllPairs is allpairs.Prepare on the backend's devices, for
// benchmarks that time the parts of a run.
func (b *Backend) PrepareAllPairs(g *graph.EdgeList, alg backend.Algorithm, withParents bool) (*allpairs.Run, error) {
	return allpairs.Prepare(b.gpus, b.AllPairsOptions(), g, alg, withParents)
}

// PrepareSSSP is sssp.Prepare on the primary device.
func (b *Backend) PrepareSSSP(g *graph.CSR, alg backend.Algorithm, opts sssp.Options) (*sssp.Solver, error) {
	return sssp.Prepare(b.gpus[0], b.opts.workers, g, alg, opts)
}

// SolveBatch is sssp.SolveBatch on the primary device.
func (b *Backend) SolveBatch(ctx context.Context, g *graph.CSR, req *backend.Request, opts sssp.Options, sink results.Sink) (sssp.Stats, error) {
	return sssp.SolveBatch(ctx, b.gpus[0], b.opts.workers, g, req, opts, sink)
}

// Run computes the rows of req.Sources with req.Choice (from the gpu
// Factory's Choose) and hands them to sink in blocks of int32 distances
// (Dist32, graph.Inf32 for "no path") and, when req asks for them, parents
// (paths.NoParent for the source and unreachable vertices). Blocks are
// page-locked host memory, filled by asynchronous copies while the device
// computes on and the consumer encodes earlier blocks; the sink may be
// called from a goroutine of Run's. The consumer must release every block
// it is handed, also after an error, and must not hold blocks back until
// Run returns: Run returns once every block is released, so that their
// memory can be reused.
//
// floyd-warshall computes the whole matrix on the device (O(n^3) work,
// O(n^2) device memory) and streams the requested rows, in any order or
// subset; sssp, bellman-ford and dijkstra solve batches of sources on one
// upload of the graph (O(n + m) device memory per source of a batch).
// Searches honour req.Targets and req.SourceTargets (rows narrowed to
// them) and stop at req.MaxDistance; all-pairs rows are exact and whole.
//
// Errors: device.ErrNotSupported (wrapped) for algorithms, variants and
// options the GPU does not implement and for int64 distances;
// device.ErrNeedsInt64 (wrapped) when distances might not fit int32;
// *backend.NegativeCycleError; *device.OutOfMemoryError; ctx's error; the sink's error.
func (b *Backend) Run(ctx context.Context, req backend.Request, sink results.Sink) error {
	if req.Choice.Int64 {
		return fmt.Errorf("gpu: int64 distances: %w", device.ErrNotSupported)
	}
	if sink == nil {
		return errors.New("gpu: Run needs a sink")
	}
	// Rows of a result read only as summaries are reduced on the device
	// by the batched searches and sweeps (whole rows), on the host by the
	// hand-over goroutine otherwise.
	sink = req.SummarizeSink(sink)
	if d, _ := backend.Describe(req.Choice.Algorithm.Name); d.AllPairs {
		return allpairs.Serve(ctx, b.gpus, b.AllPairsOptions(), req, sink)
	}
	return sssp.Serve(ctx, b.gpus, b.opts.workers, req, sink)
}

// Close frees the cached pinned memory and releases the devices. Runs
// must have returned.
func (b *Backend) Close() error {
	var errs []error
	for _, g := range b.gpus {
		errs = append(errs, g.Close(), g.Device().Close())
	}
	b.gpus = nil
	return errors.Join(errs...)
}

// stagingBlocksFor is the default pool for a host of workers cores. A block
// goes back to the pool only when every part file over its rows is
// encoded, so with few blocks most writers of a large host wait for one:
// on 16 cores, four blocks kept about ten of them busy. One block per two
// cores keeps them all encoding.
func stagingBlocksFor(workers int) int { return max(DefaultStagingBlocks, workers/2) }

func defaultOptions() options {
	workers := runtime.GOMAXPROCS(0)
	return options{
		devices: []int{0}, parents: allpairs.ParentsAuto, lookahead: true,
		workers: workers,
		staging: device.StagingOptions{Blocks: stagingBlocksFor(workers), Bytes: DefaultStagingBytes},
	}
}
