package tables

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/pathflow/pathflow/internal/arrowslices"
	"github.com/pathflow/pathflow/internal/graph"
)

// WriteVertices writes the vertices table (VerticesSchemaOf) of a graph of n
// vertices to path, which belongs in an output folder committed as a whole:
// the table a compute output carries so that its dense ids join back to
// the input's ids and coordinates. vs nil means identity ids and no
// coordinates. O(n).
func WriteVertices(path string, n int32, vs *graph.Vertices, meta map[string]string, opts ...Option) (FileInfo, error) {
	cfg, err := verticesConfig(n, vs, meta, opts)
	if err != nil {
		return FileInfo{}, err
	}
	schema := VerticesSchemaOf(vs, meta)
	return WriteFile(path, schema, verticesEncoding, cfg, func(emit func(arrow.RecordBatch) error) error {
		return emitVertices(n, vs, schema, cfg, true, emit)
	})
}

// WriteVertexSubset writes the vertices table (VerticesSchemaOf) of the
// vertices ids of a graph of n vertices to path: the rows WriteVertices
// writes for those ids, in the same order. ids must be increasing, each
// in 0..n-1: the vertices an output names (VertexSet.IDs), so that its
// joins through the table stay complete while the table stays as small as
// the answer. O(len(ids)).
func WriteVertexSubset(path string, n int32, vs *graph.Vertices, ids []int32, meta map[string]string, opts ...Option) (FileInfo, error) {
	cfg, err := verticesConfig(n, vs, meta, opts)
	if err != nil {
		return FileInfo{}, err
	}
	for i, v := range ids {
		if v < 0 || v >= n || (i > 0 && v <= ids[i-1]) {
			return FileInfo{}, fmt.Errorf("tables: vertex subset: id %d at %d is not increasing within 0..%d", v, i, n-1)
		}
	}
	coords := vs.HasCoordinates()
	schema := VerticesSchemaOf(vs, meta)
	return WriteFile(path, schema, verticesEncoding, cfg, func(emit func(arrow.RecordBatch) error) error {
		for lo := 0; lo < len(ids); lo += cfg.BatchRows {
			batch := ids[lo:min(lo+cfg.BatchRows, len(ids))]
			orig := make([]int64, len(batch))
			for i, v := range batch {
				orig[i] = int64(v)
				if vs != nil && vs.OriginalID != nil {
					orig[i] = vs.OriginalID[v]
				}
			}
			cols := []arrow.Array{arrowslices.WrapInt32(batch), arrowslices.WrapInt64(orig)}
			if coords {
				x, y := make([]int32, len(batch)), make([]int32, len(batch))
				for i, v := range batch {
					x[i], y[i] = vs.X[v], vs.Y[v]
				}
				cols = append(cols, coordinateColumns(cfg.Mem, vs, x, y)...)
			}
			rec := arrowslices.NewRecord(schema, len(batch), cols...)
			err := emit(rec)
			rec.Release()
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// verticesConfig applies opts and checks what both vertices writers take:
// the metadata and the vertices of a graph of n.
func verticesConfig(n int32, vs *graph.Vertices, meta map[string]string, opts []Option) (Config, error) {
	cfg, err := NewConfig(opts)
	if err != nil {
		return Config{}, err
	}
	if err := CheckMeta(meta); err != nil {
		return Config{}, err
	}
	return cfg, checkVerticesMeta(n, vs, meta)
}
