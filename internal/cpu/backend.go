package cpu

import (
	"context"
	"fmt"
	"runtime"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
)

// Backend runs shortest-path algorithms on the CPU. It is safe for
// concurrent use: it holds no state beyond its worker count.
type Backend struct {
	workers int
}

var _ backend.Backend = (*Backend)(nil)

// New returns a CPU backend that runs parallel work on workers goroutines;
// workers <= 0 means runtime.GOMAXPROCS(0).
func New(workers int) *Backend {
	return &Backend{workers: workerCount(workers)}
}

// workerCount resolves a requested worker count.
func workerCount(workers int) int {
	if workers <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return workers
}

// Name returns "cpu".
func (b *Backend) Name() string { return "cpu" }

// Device describes the processor, e.g. "amd64 CPU, 2 workers".
func (b *Backend) Device() string {
	return fmt.Sprintf("%s CPU, %d workers", runtime.GOARCH, b.workers)
}

// Workers returns the number of goroutines parallel work runs on.
func (b *Backend) Workers() int { return b.workers }

// Close releases nothing: the backend holds no resources.
func (b *Backend) Close() error { return nil }

// SingleSource runs one search from source with "dijkstra",
// "bellman-ford" or "auto" (see ChooseAlgorithm).
func (b *Backend) SingleSource(ctx context.Context, g *graph.CSR, source int32, alg backend.Algorithm, withParents bool) (*paths.Tree, error) {
	var t *paths.Tree
	err := b.MultiSource(ctx, g, []int32{source}, alg, withParents, func(tree *paths.Tree) error {
		t = tree
		return nil
	})
	return t, err
}

// MultiSource runs one search per source, in parallel over the backend's
// workers, and hands the trees to emit in source order on the caller's
// goroutine; at most twice as many trees as workers exist at a time.
// The graph is validated once, before any search. Algorithms as for
// SingleSource.
func (b *Backend) MultiSource(ctx context.Context, g *graph.CSR, sources []int32, alg backend.Algorithm, withParents bool, emit func(*paths.Tree) error) error {
	if err := validateCSR(g); err != nil {
		return err
	}
	for _, s := range sources {
		if err := validateSource(g.N, s); err != nil {
			return err
		}
	}
	if err := singleSourceOnly(alg); err != nil {
		return err
	}
	lo, _ := g.WeightRange()
	name := alg.Name
	if name == AlgorithmAuto {
		name, _ = ChooseAlgorithm(ProblemSingleSource, g.N, g.M(), lo < 0)
	}
	var newWorker func() func(ctx context.Context, i int) (*paths.Tree, error)
	switch name {
	case AlgorithmDijkstra:
		if err := checkDijkstraInput(g); err != nil {
			return err
		}
		newWorker = func() func(ctx context.Context, i int) (*paths.Tree, error) {
			search := newDijkstraSearch(g.N)
			return func(ctx context.Context, i int) (*paths.Tree, error) {
				return search.tree(ctx, g, sources[i], withParents)
			}
		}
	case AlgorithmBellmanFord:
		if err := checkBellmanFordInput(g); err != nil {
			return err
		}
		newWorker = func() func(ctx context.Context, i int) (*paths.Tree, error) {
			search := newBellmanFordSearch(g.N)
			return func(ctx context.Context, i int) (*paths.Tree, error) {
				t := paths.NewTree(g.N, sources[i], true)
				t.Dist[t.Source] = 0
				if err := search.run(ctx, g, t.Dist, t.Parent, []int32{t.Source}); err != nil {
					return nil, err
				}
				if !withParents {
					t.Parent = nil
				}
				return t, nil
			}
		}
	}
	return inOrder(ctx, len(sources), b.workers, newWorker, emit)
}

// singleSourceOnly rejects algorithms that are not single-source searches.
func singleSourceOnly(alg backend.Algorithm) error {
	switch alg.Name {
	case AlgorithmAuto, AlgorithmDijkstra, AlgorithmBellmanFord:
		return noVariant(alg)
	case AlgorithmFloydWarshall, AlgorithmJohnson:
		return unsupported("%s computes all pairs; single-source searches take %s, %s or %s",
			alg.Name, AlgorithmDijkstra, AlgorithmBellmanFord, AlgorithmAuto)
	default:
		return unknownAlgorithm(alg.Name)
	}
}

// AllPairs computes the full matrix with "floyd-warshall" (variants
// "blocked", the default, and "naive"), "johnson", "dijkstra" (repeated,
// non-negative weights only) or "auto" (see ChooseAlgorithm).
func (b *Backend) AllPairs(ctx context.Context, e *graph.EdgeList, alg backend.Algorithm, withParents bool) (*paths.Matrix, error) {
	if err := validateEdgeList(e); err != nil {
		return nil, err
	}
	if err := checkMatrixSize(int64(e.N)); err != nil {
		return nil, err
	}
	name := alg.Name
	if name == AlgorithmAuto {
		if err := noVariant(alg); err != nil {
			return nil, err
		}
		name, _ = ChooseAlgorithm(ProblemAllPairs, e.N, e.M(), e.HasNegativeWeight())
		// A block size given with "auto" applies if the choice is blocked.
		if name == AlgorithmFloydWarshall {
			alg = backend.Algorithm{Name: name, BlockSize: alg.BlockSize}
		} else {
			alg = backend.Algorithm{Name: name}
		}
	}
	switch name {
	case AlgorithmFloydWarshall:
		switch alg.Variant {
		case "", VariantBlocked:
			return BlockedFloydWarshall(ctx, e, alg.BlockSize, b.workers, withParents)
		case VariantNaive:
			return NaiveFloydWarshall(ctx, e, withParents)
		default:
			return nil, unsupported("unknown %s variant %q (want %q or %q)", name, alg.Variant, VariantBlocked, VariantNaive)
		}
	case AlgorithmJohnson, AlgorithmDijkstra:
		if err := noVariant(alg); err != nil {
			return nil, err
		}
		return repeatedDijkstra(ctx, e, b.workers, withParents, name == AlgorithmJohnson)
	case AlgorithmBellmanFord:
		return nil, unsupported("%s is a single-source search; all pairs take %s, %s, %s or %s",
			name, AlgorithmFloydWarshall, AlgorithmJohnson, AlgorithmDijkstra, AlgorithmAuto)
	default:
		return nil, unknownAlgorithm(name)
	}
}

// noVariant rejects a variant or block size for an algorithm that has none.
func noVariant(alg backend.Algorithm) error {
	if alg.Variant != "" {
		return unsupported("%s has no variant %q", alg.Name, alg.Variant)
	}
	if alg.BlockSize != 0 && alg.Name != AlgorithmAuto {
		return unsupported("%s takes no block size", alg.Name)
	}
	return nil
}

func unknownAlgorithm(name string) error {
	return unsupported("unknown algorithm %q (want %s, %s, %s, %s or %s)", name,
		AlgorithmAuto, AlgorithmDijkstra, AlgorithmBellmanFord, AlgorithmFloydWarshall, AlgorithmJohnson)
}

// unsupported formats an error for a request this backend does not
// implement; it wraps backend.ErrUnsupported.
func unsupported(format string, args ...any) error {
	return fmt.Errorf("cpu: "+format+" (%w)", append(args, backend.ErrUnsupported)...)
}
