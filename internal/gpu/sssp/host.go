package sssp

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/gpu/device"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/internal/shortest"
)

// Host-side pieces of the single-source searches: no CUDA, so they are
// tested in every build.

// repairParents mends, in place, every row of b whose parents loop (see
// paths.Repair: the device's smallest-tight-neighbour rule can close loops
// along arcs of weight zero or below), the rows shared out among one
// goroutine per scratch. Only graphs with weights <= 0 need it.
// O(rows * n), plus O(n + m) per mended row.
func repairParents(g *graph.CSR, b *results.Rows, scratch []*paths.TreeRepair) {
	n, rows := b.Width, b.Len()
	if b.Parent == nil || rows == 0 {
		return
	}
	workers := min(len(scratch), rows)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; i < rows; i += workers {
				dist, parent := b.Dist32[i*n:(i+1)*n], b.Parent[i*n:(i+1)*n]
				paths.Repair(scratch[w], g, b.Sources[i], dist, graph.Inf32, parent)
			}
		})
	}
	wg.Wait()
}

// negativeCycleFrom locates, with the host's Bellman-Ford (package
// shortest), the negative cycle that kept the device's Bellman-Ford from
// source relaxing after n rounds. It returns a *NegativeCycleError naming a vertex on it.
func negativeCycleFrom(ctx context.Context, g *graph.CSR, source int32) error {
	_, err := shortest.BellmanFord(ctx, g, source, false)
	var cycle *shortest.NegativeCycleError
	switch {
	case errors.As(err, &cycle):
		return &backend.NegativeCycleError{Backend: device.Name, Vertex: cycle.Vertex, Cycle: cycle.Cycle}
	case err != nil:
		return fmt.Errorf("gpu: locating a negative cycle from %d: %w", source, err)
	}
	return fmt.Errorf("gpu: Bellman-Ford from %d still relaxing after %d rounds, but the host finds no negative cycle", source, g.N)
}
