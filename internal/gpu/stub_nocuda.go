//go:build !cuda

package gpu

import (
	"context"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
)

// Available reports whether a GPU can be used, and why not. Builds without
// the cuda tag never can.
func Available() (ok bool, reason string) { return false, ErrNoCUDA.Error() }

// Backend is the CUDA backend; in builds without the cuda tag it cannot be
// created (New returns ErrNoCUDA) and its methods return ErrNoCUDA.
type Backend struct{}

var _ backend.Backend = (*Backend)(nil)

// New returns ErrNoCUDA in builds without the cuda tag.
func New(opts ...Option) (*Backend, error) { return nil, ErrNoCUDA }

// Name is "gpu".
func (b *Backend) Name() string { return "gpu" }

// Device describes the missing device.
func (b *Backend) Device() string { return "none (built without CUDA support)" }

// SingleSource returns ErrNoCUDA.
func (b *Backend) SingleSource(context.Context, *graph.CSR, int32, backend.Algorithm, bool) (*paths.Tree, error) {
	return nil, ErrNoCUDA
}

// MultiSource returns ErrNoCUDA.
func (b *Backend) MultiSource(context.Context, *graph.CSR, []int32, backend.Algorithm, bool, func(*paths.Tree) error) error {
	return ErrNoCUDA
}

// AllPairs returns ErrNoCUDA.
func (b *Backend) AllPairs(context.Context, *graph.EdgeList, backend.Algorithm, bool) (*paths.Matrix, error) {
	return nil, ErrNoCUDA
}

// Close does nothing.
func (b *Backend) Close() error { return nil }
