package compute

import (
	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/results"
)

// blockNarrower hands the distances table the blocks it expects, narrowed
// to the run's targets (results.Shape.NarrowBlock), when the backend
// computed full rows because the pipeline asked for them (compute.paths
// reads whole parent rows, and a list of every vertex in another order
// saves no search), or because a backend answered a narrowed request with
// full rows (the cpu and gpu backends narrow). A full
// block is told by its shape alone: no offsets and the vertex count as
// width, which a narrowed block never has, since targets as many as the
// vertices are never sent.
type blockNarrower struct {
	want results.Shape // the targets the table expects; none: not narrowed
	n    int
	next results.Consumer
}

// narrowing returns the consumer that narrows full blocks to req's targets
// for next, and the request to send to the backend: req itself, or req
// without targets when fullRows (the pipeline reads whole rows) or when
// its targets are as many as the vertices.
func narrowing(req backend.Request, fullRows bool, next results.Consumer) (*blockNarrower, backend.Request) {
	n := int(req.Edges.N)
	nw := &blockNarrower{n: n, next: next}
	if !req.Narrowed() {
		return nw, req
	}
	nw.want = results.Shape{Sources: req.Sources, Targets: req.Targets, SourceTargets: req.SourceTargets}
	if fullRows || len(req.Targets) == n {
		req.Targets, req.SourceTargets = nil, nil
	}
	return nw, req
}

// narrow returns rows as the table expects them: a full block of a
// narrowed run is copied to its targets and released, any other block is
// returned as it is.
func (nw *blockNarrower) narrow(rows *results.Rows) *results.Rows {
	if !nw.want.Narrowed() || rows.Offsets != nil || rows.Width != nw.n {
		return rows
	}
	defer rows.Release()
	return nw.want.NarrowBlock(rows)
}

// Put hands the block, narrowed, to the next consumer.
func (nw *blockNarrower) Put(rows *results.Rows) error { return nw.next.Put(nw.narrow(rows)) }

// Close closes the next consumer.
func (nw *blockNarrower) Close() error { return nw.next.Close() }

// Abort aborts the next consumer.
func (nw *blockNarrower) Abort() { nw.next.Abort() }
