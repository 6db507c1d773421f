package compute

import (
	"path/filepath"

	"github.com/pathflow/pathflow/internal/resultfiles"
	"github.com/pathflow/pathflow/internal/tables"
	"github.com/pathflow/pathflow/pipeline/output"
)

// writeVertices writes vertices.<ext> (dense id, original id, and x, y when
// the input has coordinates, lon, lat when they are geographic), so an analyst joins the distances back to the
// input's ids from the compute folder alone. A distance matrix run writes
// it as Parquet, the default table format.
func (r *computeRun) writeVertices(dir string, meta map[string]string) (tables.FileInfo, error) {
	path := filepath.Join(dir, output.VerticesName+r.cfg.OutFormat.Ext())
	return tables.WriteVertices(path, r.graph.Edges.N, r.graph.Vertices, meta, r.tableOptions()...)
}

// writeNamedVertices writes vertices.<ext> holding only the vertices of
// named and those the paths name: every id that any column of the
// outputs holds, in id order, so each join through the table finds its
// row while the table stays as small as the answer.
func (r *computeRun) writeNamedVertices(dir string, meta map[string]string, named *resultfiles.VertexSet) (tables.FileInfo, error) {
	for _, p := range r.pathRows {
		named.Add(p.Source)
		named.Add(p.Target)
		named.AddAll(p.Vertices)
	}
	path := filepath.Join(dir, output.VerticesName+r.cfg.OutFormat.Ext())
	return tables.WriteVertexSubset(path, r.graph.Edges.N, r.graph.Vertices, named.IDs(), meta, r.tableOptions()...)
}

// pendingTable is a table being written on its own goroutine.
type pendingTable struct {
	done chan struct{}
	info tables.FileInfo
	err  error
}

// startVertices writes the vertices table (writeVertices) on a goroutine of
// its own.
func (r *computeRun) startVertices(dir string, meta map[string]string) *pendingTable {
	p := &pendingTable{done: make(chan struct{})}
	go func() {
		defer close(p.done)
		p.info, p.err = r.writeVertices(dir, meta)
	}()
	return p
}

// wait returns the table's file once it is written; it may be called more
// than once.
func (p *pendingTable) wait() (tables.FileInfo, error) {
	<-p.done
	return p.info, p.err
}
