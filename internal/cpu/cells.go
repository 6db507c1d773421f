package cpu

import (
	"context"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/results"
	"github.com/pathflow/pathflow/internal/shortest"
)

// streamCells is stream for a request whose rows may be sparse
// (backend.Request.SparseRows): each row is its cells within the cutoff.
// Blocks are sized as for whole rows of n values, the most a row can hold.
func (b *Backend) streamCells(ctx context.Context, req *backend.Request, n int, newSearch func(withParents bool) shortest.CellSearch, sink results.Sink) error {
	return b.streamBlocks(ctx, req, 0, n, func() blockFiller {
		search := newSearch(req.Wants(results.Parent))
		return func(ctx context.Context, rows *results.Rows, first, batch int) error {
			return fillCellBlock(ctx, rows, req, first, batch, search)
		}
	}, sink)
}

// fillCellBlock computes the sparse rows of sources
// req.Sources[first:first+batch] (fewer at the end) into rows, reusing its
// buffers.
func fillCellBlock(ctx context.Context, rows *results.Rows, req *backend.Request, first, batch int, search shortest.CellSearch) error {
	sources := req.Sources[first:min(first+batch, len(req.Sources))]
	rows.First, rows.Sources, rows.Width = first, sources, 0
	rows.Offsets = append(rows.Offsets[:0], 0)
	if rows.Vertices == nil {
		rows.Vertices = []int32{} // marks the block sparse, also when it has no cells
	}
	rows.Vertices, rows.Dist64 = rows.Vertices[:0], rows.Dist64[:0]
	if req.Wants(results.Parent) {
		rows.Parent = rows.Parent[:0]
	}
	for _, s := range sources {
		if err := search(ctx, s, rows); err != nil {
			return err
		}
		rows.Offsets = append(rows.Offsets, len(rows.Vertices))
	}
	return nil
}
