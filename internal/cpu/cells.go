package cpu

import (
	"context"
	"slices"

	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/results"
)

// cellSearch computes one sparse row (results.Rows.Vertices): it appends
// the vertices within the cutoff, in increasing id order, with their
// distances and, when the block has parents, their parents, to rows.
// Each worker has its own, with its own scratch space.
type cellSearch func(ctx context.Context, source int32, rows *results.Rows) error

// dijkstraCellSearches returns the sparse row searches of a checked graph
// for a cutoff limit: Dijkstra stopping beyond limit, then the vertices it
// settled within it, sorted, copied out of the scratch row, and what it
// wrote cleared. A row costs the search and a sort of what it reached, not
// O(n) to fill, copy and filter a whole row. positive is
// positiveWeights(g).
func dijkstraCellSearches(g *graph.CSR, positive bool, limit int64) func(withParents bool) cellSearch {
	return func(withParents bool) cellSearch {
		search := newDijkstraSearch(g.N, positive)
		scratch := newRowScratch(g.N, withParents)
		// A stop without targets never ends a search early; it records
		// what the search wrote.
		stop := newTargetStop(g.N)
		var kept []int32
		return func(ctx context.Context, source int32, rows *results.Rows) error {
			stop.start(nil)
			err := dijkstraInto(ctx, search, g.Offsets, g.Targets, g.Weights, source, scratch.dist, scratch.parent, scratch.coding, limit, stop)
			if err == nil {
				kept = kept[:0]
				for _, v := range stop.touched {
					if d := scratch.distance(v); d != paths.Unreachable && d <= limit {
						kept = append(kept, v)
					}
				}
				slices.Sort(kept)
				for _, v := range kept {
					rows.Vertices = append(rows.Vertices, v)
					rows.Dist64 = append(rows.Dist64, scratch.distance(v))
					if withParents {
						rows.Parent = append(rows.Parent, scratch.coding.parentOf(scratch.parent[v]))
					}
				}
			}
			scratch.clearAt(stop.touched)
			return err
		}
	}
}

// streamCells is stream for a request whose rows may be sparse
// (backend.Request.SparseRows): each row is its cells within the cutoff.
// Blocks are sized as for whole rows of n values, the most a row can hold.
func (b *Backend) streamCells(ctx context.Context, req *backend.Request, n int, newSearch func(withParents bool) cellSearch, sink results.Sink) error {
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
func fillCellBlock(ctx context.Context, rows *results.Rows, req *backend.Request, first, batch int, search cellSearch) error {
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
