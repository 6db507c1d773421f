package cpu

import (
	"context"
	"fmt"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/internal/shortest"
)

// The CPU runs Floyd-Warshall over the whole matrix, blocked (the default,
// with the request's tile edge) or naive, and hands over views of the
// requested rows.
func init() {
	implementations.Register(backend.AlgorithmFloydWarshall, implementation{
		choose: func(p backend.Problem, c *backend.Choice) error {
			c.Algorithm = p.Algorithm
			if c.Algorithm.Variant == "" {
				c.Algorithm.Variant = VariantBlocked
			}
			c.Reason = fmt.Sprintf("requested: %s Floyd-Warshall", c.Algorithm.Variant)
			return nil
		},
		check: checkFloydWarshall,
		run:   (*Backend).runFloydWarshall,
	})
}

// checkFloydWarshall accepts the blocked variant (with a block size >= 0;
// an empty variant means blocked) and the naive one.
func checkFloydWarshall(alg backend.Algorithm) error {
	switch alg.Variant {
	case "", VariantBlocked:
		if alg.TileEdge < 0 {
			return unsupported("negative block size %d", alg.TileEdge)
		}
		return nil
	case VariantNaive:
		if alg.TileEdge != 0 {
			return unsupported("%s %s takes no block size", alg.Name, alg.Variant)
		}
		return nil
	default:
		return unsupported("unknown %s variant %q (want %q or %q)", alg.Name, alg.Variant, VariantBlocked, VariantNaive)
	}
}

// runFloydWarshall is Run for Floyd-Warshall: it computes the whole matrix
// with the request's variant, then hands the requested rows to sink as
// views of it, one block per run of sources that are consecutive vertices
// (at most b.blockValues values, and at least one row, per block), in the
// matrix's distance type. The views need no release: the matrix is
// garbage once the last of them is dropped. Blocks go to sink one at a
// time, on the caller's goroutine.
func (b *Backend) runFloydWarshall(ctx context.Context, req *backend.Request, sink results.Sink) error {
	e, err := requestEdges(req)
	if err != nil {
		return err
	}
	if err := shortest.ValidateSources(e.N, req.Sources); err != nil {
		return err
	}
	if err := validateTargets(e.N, req); err != nil {
		return err
	}
	lo, hi := e.WeightRange()
	if wide := !graph.FitsInt32Distances(int64(e.N), lo, hi); req.Choice.Int64 != wide {
		return fmt.Errorf("cpu: the request's choice says int64 distances %t, but Floyd-Warshall on this graph gives int64 %t; take the choice from Choose for this graph",
			req.Choice.Int64, wide)
	}
	if len(req.Sources) == 0 {
		return nil
	}
	var m *paths.Matrix
	if alg := req.Choice.Algorithm; alg.Variant == VariantNaive {
		m, err = shortest.NaiveFloydWarshallProgress(ctx, e, req.Wants(results.Parent), req.Progress)
	} else {
		m, err = shortest.BlockedFloydWarshallProgress(ctx, e, alg.TileEdge, b.workers, req.Wants(results.Parent), req.Progress)
	}
	if err != nil {
		return err
	}
	// The whole matrix is computed anyway: a narrowed request's targets
	// are copied out of its rows into blocks of their own.
	return matrixRows(ctx, m, req.Sources, max(1, b.valuesPerBlock()/max(1, int(m.N))), req.NarrowSink(sink))
}

// matrixRows hands the rows of sources to sink as views of m, runs of
// consecutive vertices of up to maxRows rows sharing a block.
func matrixRows(ctx context.Context, m *paths.Matrix, sources []int32, maxRows int, sink results.Sink) error {
	n := int(m.N)
	for i := 0; i < len(sources); {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("cpu: %w", err)
		}
		j := i + 1
		for j < len(sources) && j-i < maxRows && sources[j] == sources[j-1]+1 {
			j++
		}
		// Full slice expressions, so an append by the consumer cannot
		// write into the next rows.
		lo, hi := int(sources[i])*n, (int(sources[j-1])+1)*n
		rows := &results.Rows{First: i, Sources: sources[i:j], Width: n}
		if m.Dist32 != nil {
			rows.Dist32 = m.Dist32[lo:hi:hi]
		} else {
			rows.Dist64 = m.Dist64[lo:hi:hi]
		}
		if m.Parent != nil {
			rows.Parent = m.Parent[lo:hi:hi]
		}
		if err := sink(rows); err != nil {
			return err
		}
		i = j
	}
	return nil
}
