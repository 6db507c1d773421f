package backend

import "github.com/pathflow/pathflow/internal/results"

// CheckRows reports a block whose shape does not match r: wrong sources,
// sizes, or both or neither distance slice; a sparse block where r allows
// them (SparseRows) is checked as one. The width is r's target count,
// or the vertex count of its edge list (of its CSR when it has none).
func (r *Request) CheckRows(rows *results.Rows) error {
	if r.SourceTargets != nil {
		return rows.CheckRagged(r.Sources, r.SourceTargets, r.Parents)
	}
	width := rows.Width
	switch {
	case rows.Sparse() && r.SparseRows():
		return rows.CheckSparse(r.Sources, r.vertexCount(), r.MaxDistance, r.Parents)
	case r.Targets != nil:
		width = len(r.Targets)
	case r.Edges != nil || r.CSR != nil:
		width = r.vertexCount()
	}
	return rows.CheckShape(r.Sources, width, r.Parents)
}

// vertexCount is the vertex count of r's edge list, or of its CSR when it
// has none (0 without either).
func (r *Request) vertexCount() int {
	switch {
	case r.Edges != nil:
		return int(r.Edges.N)
	case r.CSR != nil:
		return int(r.CSR.N)
	}
	return 0
}
