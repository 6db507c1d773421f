package pipeline

import "github.com/pathflow/pathflow/internal/backend"

// blockNarrower turns the full blocks of a request sent without its
// targets into the blocks a backend answering with them would hand over
// (backend.Request.NarrowBlock). The pipeline asks for full rows only when
// it reads more of them than the targets (compute.paths reads whole parent
// rows), so the distances table sees narrowed blocks whatever the backend
// was asked.
type blockNarrower struct {
	req backend.Request // the targets the table expects
}

// narrowing returns what narrows full blocks to req's targets, or nil when
// req has none (its full rows are what the table expects).
func narrowing(req *backend.Request) *blockNarrower {
	if !req.Narrowed() {
		return nil
	}
	return &blockNarrower{req: backend.Request{Sources: req.Sources, Targets: req.Targets, SourceTargets: req.SourceTargets}}
}

// narrow returns the narrowed copy of full and releases full.
func (nw *blockNarrower) narrow(full *backend.Rows) *backend.Rows {
	defer full.Release()
	return nw.req.NarrowBlock(full)
}
