package geoparquet

import (
	"encoding/json"
	"fmt"

	"github.com/apache/arrow-go/v18/parquet/file"
)

// Names that GeoParquet readers look for.
const (
	// MetaKey is the Parquet key-value metadata key of the GeoParquet
	// metadata, a JSON document (FileMetadata).
	MetaKey = "geo"
	// Version is the GeoParquet version the files follow.
	Version = "1.1.0"
	// ColGeometry is the geometry column: one WKB LineString per route,
	// the file's primary geometry column.
	ColGeometry = "geometry"
	// ColBBox is the bounding box column that covers the geometry: a
	// struct of xmin, ymin, xmax and ymax, for readers that filter row
	// groups by their statistics.
	ColBBox = "bbox"
	// EncodingWKB names the geometry encoding.
	EncodingWKB = "WKB"
	// TypeLineString is the one geometry type of the geometry column.
	TypeLineString = "LineString"
)

// FileMetadata is the GeoParquet file metadata, the value of MetaKey.
type FileMetadata struct {
	// Version is the GeoParquet version (Version).
	Version string `json:"version"`
	// PrimaryColumn is the geometry column that readers use by default.
	PrimaryColumn string `json:"primary_column"`
	// Columns describe each geometry column by name.
	Columns map[string]ColumnMetadata `json:"columns"`
}

// ColumnMetadata describes one geometry column.
//
// It has no crs: GeoParquet defines a missing crs as OGC:CRS84
// (longitude, latitude in degrees on WGS84), which is what the
// coordinates are, and readers that do not parse PROJJSON (most that
// read only longitude and latitude) take the missing key as exactly that.
// A crs of null would mean an unknown CRS instead. Nor has it edges: the
// default, planar, is how road geometry is drawn, straight between
// points a few metres to a few hundred metres apart.
type ColumnMetadata struct {
	// Encoding is the geometry encoding (EncodingWKB).
	Encoding string `json:"encoding"`
	// GeometryTypes lists every geometry type in the column.
	GeometryTypes []string `json:"geometry_types"`
	// BBox is [xmin, ymin, xmax, ymax] over every geometry of the file,
	// absent when it has none.
	BBox []float64 `json:"bbox,omitempty"`
	// Covering names the column of each row's bounding box.
	Covering *Covering `json:"covering,omitempty"`
}

// Covering lists simpler stand-ins of each row's geometry.
type Covering struct {
	// BBox is where each row's bounding box is.
	BBox BBoxCovering `json:"bbox"`
}

// BBoxCovering gives, for each bound, its path in the Parquet schema:
// the bounding box column's name, then the field's.
type BBoxCovering struct {
	XMin []string `json:"xmin"`
	YMin []string `json:"ymin"`
	XMax []string `json:"xmax"`
	YMax []string `json:"ymax"`
}

// routesMetadata is the metadata of a routes file whose geometries span
// extent, or have none when empty is true.
func routesMetadata(extent Box, empty bool) FileMetadata {
	col := ColumnMetadata{
		Encoding:      EncodingWKB,
		GeometryTypes: []string{TypeLineString},
		Covering: &Covering{BBox: BBoxCovering{
			XMin: []string{ColBBox, colXMin},
			YMin: []string{ColBBox, colYMin},
			XMax: []string{ColBBox, colXMax},
			YMax: []string{ColBBox, colYMax},
		}},
	}
	if !empty {
		col.BBox = []float64{extent.XMin, extent.YMin, extent.XMax, extent.YMax}
	}
	return FileMetadata{
		Version:       Version,
		PrimaryColumn: ColGeometry,
		Columns:       map[string]ColumnMetadata{ColGeometry: col},
	}
}

// marshal encodes the metadata as JSON (map keys in sorted order, so the
// same file gives the same bytes).
func (m FileMetadata) marshal() string {
	b, err := json.Marshal(m)
	if err != nil {
		panic(err) // strings, slices and finite floats always encode
	}
	return string(b)
}

// ReadMetadata reads the GeoParquet metadata of the Parquet file at
// path, for tests and tools that check a routes file.
func ReadMetadata(path string) (FileMetadata, error) {
	r, err := file.OpenParquetFile(path, false)
	if err != nil {
		return FileMetadata{}, fmt.Errorf("geoparquet: %w", err)
	}
	defer r.Close()
	value := r.MetaData().KeyValueMetadata().FindValue(MetaKey)
	if value == nil {
		return FileMetadata{}, fmt.Errorf("geoparquet: %s has no %q metadata", path, MetaKey)
	}
	var m FileMetadata
	if err := json.Unmarshal([]byte(*value), &m); err != nil {
		return FileMetadata{}, fmt.Errorf("geoparquet: %s: %q metadata: %w", path, MetaKey, err)
	}
	return m, nil
}
