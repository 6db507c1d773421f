//go:build cuda

package sssp

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/gpu/device"
	"github.com/pathflow/pathflow/internal/gpu/spread"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/hierarchy"
	"github.com/pathflow/pathflow/internal/results"
)

// Serve answers req (an sssp, bellman-ford, dijkstra or ch Choice) on gpus,
// the first being the primary device: with several, each takes blocks of
// the sources from one feed as it is ready and streams their rows into
// sink. workers
// host goroutines per device mend parent rows. Near-far requests of
// several sources, targets or a cutoff run batched (SolveBatch), the rest
// one source at a time with the rows narrowed on the host. A request
// without sources is only validated. req.Progress hears of every block's
// rows before the block is handed on. A ch or near-far request may ask
// for the metric (results.Metric) of a graph that carries one: each cell
// then holds the distance and metric of the path shortest by (distance,
// metric), and its parent on that path (ch_metric_cuda.go,
// batch_metric_cuda.go; near-far then always runs batched); the other
// variants refuse it with device.ErrNotSupported.
func Serve(ctx context.Context, gpus []*device.Stager, workers int, req backend.Request, sink results.Sink) error {
	if len(gpus) == 0 {
		return errors.New("gpu: a search needs a device")
	}
	g := req.CSR
	if g == nil {
		if req.Edges == nil {
			return errors.New("gpu: the request has no graph")
		}
		g = graph.BuildCSR(req.Edges)
	}
	if err := spread.CheckSources(g.N, req.Sources); err != nil {
		return err
	}
	ch := req.Choice.Algorithm.Name == AlgorithmCH
	if len(req.Sources) == 0 {
		if ch {
			return nil
		}
		_, err := planSSSP(g, req.Choice.Algorithm, Options{})
		return err
	}
	metric := req.Wants(results.Metric)
	if metric && g.Metric == nil {
		return fmt.Errorf("gpu: a metric was asked for and the graph carries none: %w", device.ErrNotSupported)
	}
	// A hierarchy built for the weight alone may have dropped the
	// shortcuts of paths that tie on it: a metric run needs one built
	// for the pairs (hierarchy.HasMetric).
	if ch && (req.Hierarchy == nil || (metric && !req.Hierarchy.HasMetric())) {
		// Built once on the host, before the sources are spread over devices.
		began := time.Now()
		h, err := hierarchy.Build(ctx, g, hierarchy.WithWorkers(workers))
		if err != nil {
			return fmt.Errorf("gpu: ch: %w", err)
		}
		req.Hierarchy = h
		req.ReportFact(hierarchy.FactKey, h.Facts(time.Since(began).Seconds()))
	}
	sink = countRows(&req, sink)
	if len(gpus) == 1 {
		return newUnit(gpus[0], workers).serve(ctx, g, &req, sink)
	}
	return serveSpread(ctx, gpus, workers, g, &req, sink)
}

// serve solves req's sources on b's device: near-far requests of several
// sources, targets or a cutoff through the batched search, the rest one
// source at a time with the rows narrowed on the host.
func (b *unit) serve(ctx context.Context, g *graph.CSR, req *backend.Request, sink results.Sink) error {
	alg := req.Choice.Algorithm
	if alg.Name == AlgorithmCH {
		return b.serveCH(ctx, g, req, sink)
	}
	plan, err := b.share.plan.get(func() (ssspPlan, error) { return planSSSP(g, alg, Options{}) })
	if err != nil {
		return err
	}
	if req.Wants(results.Metric) && plan.variant != VariantNearFar {
		return fmt.Errorf("gpu: a metric beside the distance is reported on the GPU by %s and the %s search alone, not %s (%s): %w",
			AlgorithmCH, VariantNearFar, alg.Name, plan.variant, device.ErrNotSupported)
	}
	// Only the batched search sums a metric.
	if plan.variant == VariantNearFar && (useBatch(req) || req.Wants(results.Metric)) {
		start := time.Now()
		stats, err := b.solveBatch(ctx, g, req, plan, nil, sink) // sources checked by Serve
		req.ReportFact(fmt.Sprintf("gpu%d", b.dev.Ordinal()), batchFacts(stats, time.Since(start)))
		return err
	}
	start := time.Now()
	s, err := b.prepare(g, alg, Options{})
	if err != nil {
		return err
	}
	prepared := time.Since(start)
	stats, err := s.Solve(ctx, req.Sources, req.Wants(results.Parent), req.NarrowSink(sink))
	stats.Prepare = prepared
	req.ReportFact(fmt.Sprintf("gpu%d", b.dev.Ordinal()), batchFacts(stats, time.Since(start)))
	if cerr := s.Close(); cerr != nil {
		err = errors.Join(err, fmt.Errorf("gpu: releasing the single-source buffers: %w", cerr))
	}
	return err
}

// serveCH answers req from req.Hierarchy by PHAST sweeps on b's device,
// through the batched run's gathers and staging (solveBatch).
func (b *unit) serveCH(ctx context.Context, g *graph.CSR, req *backend.Request, sink results.Sink) error {
	if req.Hierarchy.N != g.N {
		return fmt.Errorf("gpu: ch: the request's hierarchy has %d vertices and its graph %d", req.Hierarchy.N, g.N)
	}
	plan, err := b.share.plan.get(func() (ssspPlan, error) {
		return planSSSP(g, backend.Algorithm{Name: SSSPFamily, Variant: VariantNearFar}, Options{})
	})
	if err != nil {
		return err
	}
	start := time.Now()
	stats, err := b.solveBatch(ctx, g, req, plan, req.Hierarchy, sink)
	req.ReportFact(fmt.Sprintf("gpu%d", b.dev.Ordinal()), batchFacts(stats, time.Since(start)))
	return err
}

// serveSpread serves req on every device at once: each takes the next
// block of the request's rows from one shared feed (device.RowFeed) as
// soon as it is ready for it, and streams its rows into sink. The graph
// and the hierarchy cross the host's link once (device.UploadShare): the
// other devices copy them from the first over the peer link. The host
// plans the request once for all of them (requestShare).
func serveSpread(ctx context.Context, gpus []*device.Stager, workers int, g *graph.CSR, req *backend.Request, sink results.Sink) error {
	feed := device.NewRowFeed(len(req.Sources), len(gpus))
	share := device.NewUploadShare()
	planned := &requestShare{}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		wg    sync.WaitGroup
		first spread.FirstError
	)
	for d, gpu := range gpus {
		wg.Add(1)
		go func() {
			defer wg.Done()
			part := *req
			// Two contexts may share a GPU: facts are keyed by context too.
			part.Facts = func(key string, value any) { req.ReportFact(fmt.Sprintf("context%d.%s", d, key), value) }
			u := newUnit(gpu, workers)
			u.feed, u.share = feed, planned
			err := gpu.Device().ShareUploads(share)
			if err == nil {
				err = u.serve(ctx, g, &part, sink)
				err = errors.Join(err, gpu.Device().ShareUploads(nil))
			}
			if err != nil {
				first.Set(fmt.Errorf("gpu: device %d: %w", gpu.Device().Ordinal(), err))
				cancel()
			}
		}()
	}
	wg.Wait()
	req.ReportFact(FactSharedUploads, share.PeerCopies())
	return first.Get()
}

// FactSharedUploads is the run fact of a spread run that counts the
// arrays a device copied from another instead of from host memory
// (device.UploadShare).
const FactSharedUploads = "uploads_copied_between_devices"

// countRows wraps sink so that req.Progress hears of every block's rows
// (sources) before the block is handed on.
func countRows(req *backend.Request, sink results.Sink) results.Sink {
	if req.Progress == nil {
		return sink
	}
	var done atomic.Int64
	total := int64(len(req.Sources))
	return func(rows *results.Rows) error {
		req.Progress(done.Add(int64(rows.Len())), total)
		return sink(rows)
	}
}
