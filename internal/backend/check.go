package backend

import "github.com/pathflow/pathflow/internal/results"

// CheckRows reports a block whose shape does not match r (see
// results.Shape.Check), over the vertex count of its edge list (of its
// CSR when it has none).
func (r *Request) CheckRows(rows *results.Rows) error {
	return r.Shape.Check(rows, r.vertexCount())
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
