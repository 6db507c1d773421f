package resultfiles

import (
	"github.com/pathflow/pathflow/internal/graph"
)

// OriginalIDs says whether the summary and paths tables also name their
// vertices by the input's ids (a run with compute.ids: original), so that
// they speak the request's ids without a join through the vertices table,
// as the distances table does (ResultShape.WithOriginal). The zero value
// writes none.
type OriginalIDs struct {
	// Write asks for the columns.
	Write bool
	// Vertices gives every vertex's id in the input (graph.Vertices.Original);
	// nil, or nil OriginalID: the dense ids are the input's.
	Vertices *graph.Vertices
}
