package backend

import (
	"context"
	"errors"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
)

// Algorithm names what to run: an algorithm family and one of its variants
// (for example "floyd-warshall" / "blocked"). An empty variant means the
// backend's best for the family.
type Algorithm struct {
	Name    string
	Variant string
	// BlockSize is the tile edge for blocked variants; 0 means the default.
	BlockSize int
}

// Backend runs shortest-path algorithms on one kind of hardware. Every
// method validates its inputs and returns an error rather than a wrong
// answer: negative cycles, distances that could overflow the backend's
// arithmetic, devices without enough memory.
type Backend interface {
	// Name is "cpu" or "gpu".
	Name() string
	// Device describes the hardware, e.g. "NVIDIA H200 (sm_90, 139 GiB)".
	Device() string
	// SingleSource computes distances (and parents when withParents) from
	// source.
	SingleSource(ctx context.Context, g *graph.CSR, source int32, alg Algorithm, withParents bool) (*paths.Tree, error)
	// MultiSource runs SingleSource from every source and hands each tree to
	// emit, in the order of sources, as soon as it is ready; emit runs on
	// the caller's goroutine.
	MultiSource(ctx context.Context, g *graph.CSR, sources []int32, alg Algorithm, withParents bool, emit func(*paths.Tree) error) error
	// AllPairs computes the full distance matrix (and the predecessor
	// matrix when withParents).
	AllPairs(ctx context.Context, g *graph.EdgeList, alg Algorithm, withParents bool) (*paths.Matrix, error)
	// Close releases the backend's resources.
	Close() error
}

// ErrUnsupported is wrapped by every backend's error for an algorithm,
// variant or option it does not implement, so callers can report it as a
// configuration problem rather than a failed computation.
var ErrUnsupported = errors.New("not supported by this backend")
