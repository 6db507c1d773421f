package compute

import (
	"github.com/pathflow/pathflow/internal/backend"
	"github.com/pathflow/pathflow/internal/results"
)

// narrowing returns the consumer that narrows full blocks to req's targets
// for next (results.Narrower), and the request to send to the backend:
// req itself, or req without targets when fullRows (compute.paths reads
// whole parent rows) or when its targets are as many as the vertices (a
// list of every vertex in another order saves no search). The cpu and gpu
// backends narrow a narrowed request themselves; the Narrower then passes
// their blocks through.
func narrowing(req backend.Request, fullRows bool, next results.Consumer) (*results.Narrower, backend.Request) {
	n := int(req.Edges.N)
	nw := results.NewNarrower(req.Shape, n, next)
	if req.Narrowed() && (fullRows || len(req.Targets) == n) {
		req.Targets, req.SourceTargets = nil, nil
	}
	return nw, req
}
