package compute

import (
	"fmt"
	"path/filepath"

	"github.com/pathflow/pathflow/internal/resultfiles"
	"github.com/pathflow/pathflow/internal/routes"
	"github.com/pathflow/pathflow/internal/tables"
	"github.com/pathflow/pathflow/pipeline/ingest"
	"github.com/pathflow/pathflow/pipeline/input"
	"github.com/pathflow/pathflow/pipeline/output"
	"github.com/pathflow/pathflow/pipeline/stageerr"
)

// writesPaths reports whether the run writes a paths table: of
// compute.paths or of compute.path_pairs. Its input is then read from an
// ingest output's tables rather than the reload file, since a route names
// its arcs by their rows in the edges table, as the geometry table does.
func (c *Config) writesPaths() bool { return len(c.Pairs) > 0 || c.PathPairs != "" }

// roadRoutes returns the index of g's routes when its vertices are
// geographic (an OpenStreetMap extract or its ingest output), nil for
// other inputs, whose paths table lists vertices alone. The arcs' points
// are placesGeometry's; their travel time and length the OpenStreetMap
// reader's, or the edges table's time_ms and length_m columns, checked
// against the ingest manifest, where it has them.
func roadRoutes(g *input.LoadedGraph) (*routes.Index, error) {
	if !g.Vertices.IsGeographic() {
		return nil, nil
	}
	geometry, err := placesGeometry(g)
	if err != nil {
		return nil, &stageerr.InputError{Err: err}
	}
	net := routes.Network{Edges: g.Edges, Vertices: g.Vertices, Geometry: geometry}
	switch {
	case g.Road != nil:
		net.TimeMS, net.LengthM = g.Road.TimeMS, g.Road.LengthM
	case g.Folder != "" && g.Listing() != nil && g.CSR == nil:
		// Read from its tables (input.TablesForArcRows): the edges table's
		// time_ms and length_m, where it has them, follow these arcs. An
		// output mapped from its reload file has no such columns.
		if net.TimeMS, net.LengthM, err = roadMetrics(g); err != nil {
			return nil, &stageerr.InputError{Err: err}
		}
	}
	ix, err := routes.NewIndex(net)
	if err != nil {
		return nil, &stageerr.InputError{Err: fmt.Errorf("%s: %w", g.File, err)}
	}
	return ix, nil
}

// roadMetrics reads the time_ms and length_m columns of an ingest
// output's edges table, each nil where the table lacks it or gives
// another unit.
func roadMetrics(g *input.LoadedGraph) (timeMS, lengthM []int32, err error) {
	read := func(name, unit string) ([]int32, error) {
		col, found, err := edgesColumn(g, name)
		if err != nil || !found || col.Unit != unit || col.Int32 == nil {
			return nil, err
		}
		return col.Int32, nil
	}
	if timeMS, err = read(ingest.ColTimeMS, resultfiles.UnitTime); err != nil {
		return nil, nil, err
	}
	if lengthM, err = read(ingest.ColLengthM, resultfiles.UnitLength); err != nil {
		return nil, nil, err
	}
	return timeMS, lengthM, nil
}

// writePathTable writes the paths table of rows into dir: routes through
// package geoparquet on a road network (roadRoutes), else the table of
// vertex lists. others holds the request file's other columns, a value
// per row (none for compute.paths).
func (r *computeRun) writePathTable(dir string, meta map[string]string, rows []resultfiles.PathRow, others tables.OtherColumns) (tables.FileInfo, error) {
	return r.writePathTableAsReady(dir, meta, rows, nil, others)
}

// writePathTableAsReady writes the paths table as writePathTable does
// while its rows are still being filled: ready, unless nil, says when a
// row is final (resultfiles.WriteRoutesAsReady). Routes are encoded as
// their rows come; a table of vertex lists waits for the last row.
func (r *computeRun) writePathTableAsReady(dir string, meta map[string]string, rows []resultfiles.PathRow, ready func(int) error, others tables.OtherColumns) (tables.FileInfo, error) {
	path := filepath.Join(dir, output.PathsName+r.cfg.OutFormat.Ext())
	ids := resultfiles.OriginalIDs{Write: r.cfg.OriginalIDs, Vertices: r.graph.Vertices}
	if r.routes != nil {
		return resultfiles.WriteRoutesAsReady(path, rows, ready, ids, others, r.routes, meta, r.tableOptions()...)
	}
	if ready != nil {
		for i := range rows {
			if err := ready(i); err != nil {
				return tables.FileInfo{}, err
			}
		}
	}
	return resultfiles.WritePathsWith(path, rows, ids, others, meta, r.tableOptions()...)
}
