package pipeline

import (
	"path/filepath"

	"github.com/pathflow/pathflow/internal/tables"
)

// writeVertices writes vertices.<ext> (dense id, original id, and x, y when
// the input has coordinates), so an analyst joins the distances back to the
// input's ids from the compute folder alone. A distance matrix run writes
// it as Parquet, the default table format.
func (r *computeRun) writeVertices(dir string, meta map[string]string) (tables.FileInfo, error) {
	path := filepath.Join(dir, VerticesName+r.cfg.OutFormat.Ext())
	return tables.WriteVertices(path, r.graph.Edges.N, r.graph.Vertices, meta, r.tableOptions()...)
}
