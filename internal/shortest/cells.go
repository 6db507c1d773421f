package shortest

import (
	"context"
	"slices"

	"github.com/pathflow/pathflow/internal/graph"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/results"
)

// CellSearch computes one sparse row (results.Rows.Vertices): it appends
// the vertices within the cutoff, in increasing id order, with their
// distances and, when the block has parents, their parents, to rows.
// Each worker has its own, with its own scratch space.
type CellSearch func(ctx context.Context, source int32, rows *results.Rows) error

// DijkstraCellSearches returns the sparse row searches of a checked graph
// for a cutoff limit: Dijkstra stopping beyond limit, then the vertices it
// settled within it, sorted, copied out of the scratch row, and what it
// wrote cleared. A row costs the search and a sort of what it reached, not
// O(n) to fill, copy and filter a whole row. positive is
// positiveWeights(g).
func DijkstraCellSearches(g *graph.CSR, positive bool, limit int64) func(withParents bool) CellSearch {
	return dijkstraCellSearchesOn(g, g.Weights, positive, limit)
}

// dijkstraCellSearchesOn is DijkstraCellSearches over weights, g's or
// another value per arc in g's order (metric keys).
func dijkstraCellSearchesOn[W arcWeight](g *graph.CSR, weights []W, positive bool, limit int64) func(withParents bool) CellSearch {
	return func(withParents bool) CellSearch {
		search := newDijkstraSearch(g.N, positive)
		scratch := newRowScratch(g.N, withParents)
		// A stop without targets never ends a search early; it records
		// what the search wrote.
		stop := newTargetStop(g.N)
		var kept []int32
		return func(ctx context.Context, source int32, rows *results.Rows) error {
			stop.start(nil)
			err := dijkstraInto(ctx, search, g.Offsets, g.Targets, weights, source, scratch.dist, scratch.parent, scratch.coding, limit, stop)
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
