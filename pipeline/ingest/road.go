package ingest

import (
	"github.com/pathflow/pathflow/internal/tables"
	"github.com/pathflow/pathflow/pipeline/input"
	"github.com/pathflow/pathflow/pipeline/output"
)

// Column names of what an OpenStreetMap input adds to the edges table.
const (
	ColTimeMS  = "time_ms"
	ColLengthM = "length_m"
	ColWayID   = "way_id"
)

// roadColumns returns the edges table's columns beyond src, dst and
// weight for a road network: both metrics (one of them equal to the
// weight, so that every table says what its numbers are) and the way of
// each arc, for joins to OpenStreetMap data. None for other inputs.
func roadColumns(g *input.LoadedGraph) []tables.ArcColumn {
	if g.Road == nil {
		return nil
	}
	return []tables.ArcColumn{
		{Name: ColTimeMS, Unit: "ms", Int32: g.Road.TimeMS},
		{Name: ColLengthM, Unit: "m", Int32: g.Road.LengthM},
		{Name: ColWayID, Int64: g.Road.WayID},
	}
}

// writeRoadGeometry writes the geometry table of a road network into dir:
// the points each arc passes through between its vertices.
func writeRoadGeometry(cfg *Config, dir string, g *input.LoadedGraph) ([]tables.FileInfo, error) {
	if g.Road == nil || cfg.Output == IngestBinary || cfg.Output == IngestDIMACS {
		return nil, nil
	}
	geo := g.Road.Geometry
	fi, err := tables.WriteArcGeometry(tables.GeometryFileIn(dir, cfg.Tables), tables.ArcGeometry{Offsets: geo.Offsets, X: geo.X, Y: geo.Y}, input.Metadata(g),
		tables.WithFormat(cfg.Tables), tables.WithCompression(cfg.Compression), tables.WithBatchRows(cfg.BatchRows))
	if err != nil {
		return nil, err
	}
	return []tables.FileInfo{fi}, nil
}

// roadManifest is the manifest's account of how a road network was made.
func roadManifest(g *input.LoadedGraph) *output.RoadManifest {
	if g.Road == nil {
		return nil
	}
	s := g.Road.Stats
	return &output.RoadManifest{
		Profile: g.Road.Profile, ProfileDigest: g.Road.ProfileDigest, Weight: g.Road.Weight, WeightUnit: g.WeightUnit,
		Ways: s.Ways, WayNodes: s.WayNodes, MissingNodes: s.MissingNodes, Barriers: s.Barriers, BlockingBarriers: s.Blocking,
		Components: s.Components, LargestComponents: s.ComponentSizes, DroppedVertices: s.DroppedVertices,
	}
}

// roadOtherMetric returns, of a road network's time and length, the one
// that is not the weight: its name, its unit and its values in the arcs'
// order. "", "" and nil for other inputs.
func roadOtherMetric(g *input.LoadedGraph) (name, unit string, values []int32) {
	switch {
	case g.Road == nil:
		return "", "", nil
	case g.Road.Weight == "time":
		return "length", "m", g.Road.LengthM
	}
	return "time", "ms", g.Road.TimeMS
}
