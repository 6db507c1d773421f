//go:build cuda

package gpu

import (
	"context"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
)

// Backend is the CUDA implementation of backend.Backend. It owns one
// Device; its methods may be called from several goroutines (work on the
// device runs one call at a time).
type Backend struct {
	dev  *Device
	opts options
}

var _ backend.Backend = (*Backend)(nil)

// New opens the GPU (device 0 unless WithDevice says otherwise).
func New(opts ...Option) (*Backend, error) {
	o := defaultOptions()
	for _, opt := range opts {
		opt(&o)
	}
	dev, err := Open(o.device)
	if err != nil {
		return nil, err
	}
	return &Backend{dev: dev, opts: o}, nil
}

// Name is "gpu".
func (b *Backend) Name() string { return "gpu" }

// Device describes the GPU, e.g. "NVIDIA H200 (sm_90, 139 GiB)".
func (b *Backend) Device() string { return b.dev.String() }

// GPU is the backend's device, for algorithms built on this package.
func (b *Backend) GPU() *Device { return b.dev }

// SingleSource runs the sssp, bellman-ford or dijkstra family (see the
// SSSP variant constants and PrepareSSSP for the errors).
func (b *Backend) SingleSource(ctx context.Context, g *graph.CSR, source int32, alg backend.Algorithm, withParents bool) (*paths.Tree, error) {
	return b.singleSource(ctx, g, source, alg, withParents)
}

// MultiSource runs SingleSource from every source on one upload of g,
// near-far solving batches of sources per launch, and emits the trees in
// source order.
func (b *Backend) MultiSource(ctx context.Context, g *graph.CSR, sources []int32, alg backend.Algorithm, withParents bool, emit func(*paths.Tree) error) error {
	return b.multiSource(ctx, g, sources, alg, withParents, emit)
}

// AllPairs runs the floyd-warshall family (see the Variant constants) and
// returns int32 distances (Dist32, graph.Inf32 for "no path") and, when
// withParents, the predecessor matrix. Errors: ErrNeedsInt64 (wrapped) when
// distances might not fit int32, *NegativeCycleError, *OutOfMemoryError,
// ErrNotSupported (wrapped) for unknown names and variants. O(n^3) work,
// O(n^2) device memory.
func (b *Backend) AllPairs(ctx context.Context, g *graph.EdgeList, alg backend.Algorithm, withParents bool) (*paths.Matrix, error) {
	run, err := b.PrepareAllPairs(g, alg, withParents)
	if err != nil {
		return nil, err
	}
	defer run.Close()
	if _, err := run.Compute(ctx); err != nil {
		return nil, err
	}
	return run.Matrix()
}

// Close releases the device.
func (b *Backend) Close() error { return b.dev.Close() }
