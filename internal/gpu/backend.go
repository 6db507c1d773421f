//go:build cuda

package gpu

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/hierarchy"
)

// Backend is the CUDA implementation of backend.Backend. It owns one
// Device, the primary, and one Backend per other selected device
// (WithDevices); its methods may be called from several goroutines (work
// on a device runs one call at a time).
type Backend struct {
	dev    *Device
	opts   options
	pinned pinnedCache
	// others are the backends of the other selected devices, each with its
	// own context and staging; peers describes the links between them.
	others []*Backend
	peers  string
}

var _ backend.Backend = (*Backend)(nil)

// New opens the selected GPUs (device 0 unless WithDevice or WithDevices
// say otherwise), one context each, and enables peer access between
// distinct GPUs that support it.
func New(opts ...Option) (*Backend, error) {
	o := defaultOptions()
	for _, opt := range opts {
		opt(&o)
	}
	ordinals, err := resolveDevices(o.devices)
	if err != nil {
		return nil, err
	}
	// The staging pool is shared out: each device streams its own rows.
	o.stagingBlocks = max(2, (o.stagingBlocks+len(ordinals)-1)/len(ordinals))
	var all []*Backend
	for _, ordinal := range ordinals {
		dev, err := Open(ordinal)
		if err != nil {
			for _, b := range all {
				err = errors.Join(err, b.Close())
			}
			return nil, err
		}
		// Keep one run's worth of pinned blocks (distances and parents)
		// between runs.
		limit := 2 * int64(o.stagingBlocks) * o.stagingBytes
		all = append(all, &Backend{dev: dev, opts: o, pinned: pinnedCache{limit: limit}})
	}
	b := all[0]
	b.others = all[1:]
	if b.peers, err = enablePeerAccess(all); err != nil {
		return nil, errors.Join(err, b.Close())
	}
	return b, nil
}

// devices is every device's backend, the primary first.
func (b *Backend) devices() []*Backend { return append([]*Backend{b}, b.others...) }

// Name is "gpu".
func (b *Backend) Name() string { return Name }

// Device describes the GPU, e.g. "NVIDIA H200 (sm_90, 139 GiB)", or
// with several: "2 devices: [0] NVIDIA H200 (sm_90, 139 GiB), [1] ...;
// peer access 0<->1".
func (b *Backend) Device() string {
	if len(b.others) == 0 {
		return b.dev.String()
	}
	all := b.devices()
	names := make([]string, len(all))
	for i, d := range all {
		names[i] = fmt.Sprintf("[%d] %s", d.dev.Ordinal(), d.dev)
	}
	return fmt.Sprintf("%d devices: %s; %s", len(all), strings.Join(names, ", "), b.peers)
}

// GPU is the backend's device, for algorithms built on this package.
func (b *Backend) GPU() *Device { return b.dev }

// Run computes the rows of req.Sources with req.Choice (from the gpu
// Factory's Choose) and hands them to sink in blocks of int32 distances
// (Dist32, graph.Inf32 for "no path") and, when req.Parents, parents
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
// Errors: ErrNotSupported (wrapped) for algorithms, variants and options
// the GPU does not implement and for int64 distances; ErrNeedsInt64
// (wrapped) when distances might not fit int32; *NegativeCycleError;
// *OutOfMemoryError; ctx's error; the sink's error.
func (b *Backend) Run(ctx context.Context, req backend.Request, sink backend.Sink) error {
	if req.Choice.Int64 {
		return fmt.Errorf("gpu: int64 distances: %w", ErrNotSupported)
	}
	if sink == nil {
		return errors.New("gpu: Run needs a sink")
	}
	alg := req.Choice.Algorithm
	if alg.Name == AllPairsFamily {
		return b.runAllPairs(ctx, req, sink)
	}
	g := req.CSR
	if g == nil {
		if req.Edges == nil {
			return errors.New("gpu: the request has no graph")
		}
		g = graph.BuildCSR(req.Edges)
	}
	if err := checkSources(g.N, req.Sources); err != nil {
		return err
	}
	if len(req.Sources) == 0 {
		_, err := planSSSP(g, alg, SSSPOptions{})
		return err
	}
	if alg.Name == AlgorithmCH && req.Hierarchy == nil {
		// Built once on the host, before the sources are spread over devices.
		began := time.Now()
		h, err := hierarchy.Build(ctx, g, hierarchy.WithWorkers(b.opts.workers))
		if err != nil {
			return fmt.Errorf("gpu: ch: %w", err)
		}
		req.Hierarchy = h
		req.ReportFact(hierarchy.FactKey, h.Facts(time.Since(began).Seconds()))
	}
	sink = countRows(&req, sink)
	if len(b.others) == 0 {
		return b.runSSSP(ctx, g, &req, sink)
	}
	return b.runSSSPSpread(ctx, g, &req, sink)
}

// runSSSP solves req's sources on b's device: near-far requests of several
// sources, targets or a cutoff through the batched search (SolveBatch),
// the rest one source at a time with the rows narrowed on the host.
func (b *Backend) runSSSP(ctx context.Context, g *graph.CSR, req *backend.Request, sink backend.Sink) error {
	alg := req.Choice.Algorithm
	if alg.Name == AlgorithmCH {
		return b.runCH(ctx, g, req, sink)
	}
	plan, err := planSSSP(g, alg, SSSPOptions{})
	if err != nil {
		return err
	}
	if plan.variant == VariantNearFar && useBatch(req) {
		start := time.Now()
		stats, err := b.solveBatch(ctx, g, req, plan, nil, sink) // sources checked by Run
		req.ReportFact(fmt.Sprintf("gpu%d", b.dev.Ordinal()), batchFacts(stats, time.Since(start)))
		return err
	}
	s, err := b.PrepareSSSP(g, alg, SSSPOptions{})
	if err != nil {
		return err
	}
	_, err = s.Solve(ctx, req.Sources, req.Parents, backend.NarrowSink(req, sink))
	if cerr := s.Close(); cerr != nil {
		err = errors.Join(err, fmt.Errorf("gpu: releasing the single-source buffers: %w", cerr))
	}
	return err
}

// runCH answers req from req.Hierarchy by PHAST sweeps on b's device,
// through the batched run's gathers and staging (solveBatch).
func (b *Backend) runCH(ctx context.Context, g *graph.CSR, req *backend.Request, sink backend.Sink) error {
	if req.Hierarchy.N != g.N {
		return fmt.Errorf("gpu: ch: the request's hierarchy has %d vertices and its graph %d", req.Hierarchy.N, g.N)
	}
	plan, err := planSSSP(g, backend.Algorithm{Name: SSSPFamily, Variant: VariantNearFar}, SSSPOptions{})
	if err != nil {
		return err
	}
	start := time.Now()
	stats, err := b.solveBatch(ctx, g, req, plan, req.Hierarchy, sink)
	req.ReportFact(fmt.Sprintf("gpu%d", b.dev.Ordinal()), batchFacts(stats, time.Since(start)))
	return err
}

// runSSSPSpread splits the sources into one contiguous block per device
// (with their target lists) and solves the blocks at once, each device
// streaming its rows into sink.
func (b *Backend) runSSSPSpread(ctx context.Context, g *graph.CSR, req *backend.Request, sink backend.Sink) error {
	devs := b.devices()
	bounds := splitEvenly(int64(len(req.Sources)), len(devs))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		wg    sync.WaitGroup
		first firstError
	)
	for d, dev := range devs {
		lo, hi := bounds[d], bounds[d+1]
		if lo == hi {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			part := *req
			part.Sources = req.Sources[lo:hi]
			if req.SourceTargets != nil {
				part.SourceTargets = req.SourceTargets[lo:hi]
			}
			// Two contexts may share a GPU: facts are keyed by context too.
			part.Facts = func(key string, value any) { req.ReportFact(fmt.Sprintf("context%d.%s", d, key), value) }
			if err := dev.runSSSP(ctx, g, &part, shiftRows(sink, int(lo))); err != nil {
				first.set(fmt.Errorf("gpu: device %d: %w", dev.dev.Ordinal(), err))
				cancel()
			}
		}()
	}
	wg.Wait()
	return first.get()
}

// countRows wraps sink so that req.Progress hears of every block's rows
// (sources) before the block is handed on.
func countRows(req *backend.Request, sink backend.Sink) backend.Sink {
	if req.Progress == nil {
		return sink
	}
	var done atomic.Int64
	total := int64(len(req.Sources))
	return func(rows *backend.Rows) error {
		req.Progress(done.Add(int64(rows.Len())), total)
		return sink(rows)
	}
}

// runAllPairs computes the matrix and streams the requested rows.
func (b *Backend) runAllPairs(ctx context.Context, req backend.Request, sink backend.Sink) error {
	e := req.Edges
	if e == nil {
		return errors.New("gpu: floyd-warshall needs the request's edge list")
	}
	if err := checkSources(e.N, req.Sources); err != nil {
		return err
	}
	if len(req.Sources) == 0 {
		_, err := planAllPairs(e, req.Choice.Algorithm, req.Parents, b.opts.parents)
		return err
	}
	run, err := b.PrepareAllPairs(e, req.Choice.Algorithm, req.Parents)
	if err != nil {
		return err
	}
	run.SetProgress(req.Progress)
	_, err = run.Compute(ctx)
	if err == nil {
		_, err = run.Stream(ctx, req.Sources, backend.NarrowSink(&req, sink))
	}
	if cerr := run.Close(); cerr != nil {
		err = errors.Join(err, fmt.Errorf("gpu: releasing the matrix: %w", cerr))
	}
	return err
}

// Close frees the cached pinned memory and releases the devices. Runs
// must have returned.
func (b *Backend) Close() error {
	var errs []error
	for _, o := range b.others {
		errs = append(errs, o.Close())
	}
	b.others = nil
	err := b.dev.Do(func(*Ctx) error { return b.pinned.freeAll() })
	if errors.Is(err, ErrClosed) {
		err = nil
	}
	return errors.Join(append(errs, err, b.dev.Close())...)
}
