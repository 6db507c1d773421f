package tables

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/pathflow/pathflow/internal/graph"
)

// WriteVertices writes the vertices table (VerticesSchema) of a graph of n
// vertices to path, which belongs in an output folder committed as a whole:
// the table a compute output carries so that its dense ids join back to
// the input's ids and coordinates. vs nil means identity ids and no
// coordinates. O(n).
func WriteVertices(path string, n int32, vs *graph.Vertices, meta map[string]string, opts ...Option) (FileInfo, error) {
	cfg, err := newConfig(opts)
	if err != nil {
		return FileInfo{}, err
	}
	if err := checkMeta(meta); err != nil {
		return FileInfo{}, err
	}
	if err := checkVertices(n, vs); err != nil {
		return FileInfo{}, err
	}
	schema := VerticesSchema(vs.HasCoordinates(), meta)
	return writeFile(path, schema, verticesEncoding, cfg, func(emit func(arrow.RecordBatch) error) error {
		return emitVertices(n, vs, schema, cfg, true, emit)
	})
}
