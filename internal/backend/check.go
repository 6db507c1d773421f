package backend

import "github.com/pathflow/pathflow/internal/results"

// CheckRows reports a block whose shape does not match r: wrong sources,
// sizes, or both or neither distance slice. The width is r's target count,
// or the vertex count of its edge list (of its CSR when it has none).
func (r *Request) CheckRows(rows *results.Rows) error {
	if r.SourceTargets != nil {
		return rows.CheckRagged(r.Sources, r.SourceTargets, r.Parents)
	}
	width := rows.Width
	switch {
	case r.Targets != nil:
		width = len(r.Targets)
	case r.Edges != nil:
		width = int(r.Edges.N)
	case r.CSR != nil:
		width = int(r.CSR.N)
	}
	return rows.CheckShape(r.Sources, width, r.Parents)
}
