package tables

import (
	"fmt"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/pathflow/pathflow/internal/graph"
)

// Column names of the graph tables.
const (
	ColSrc    = "src"
	ColDst    = "dst"
	ColWeight = "weight"

	ColID         = "id"
	ColOriginalID = "original_id"
	ColX          = "x"
	ColY          = "y"
	ColLon        = "lon"
	ColLat        = "lat"
)

// Geographic coordinates are stored as plain float64 degrees, which every
// reader takes as numbers, and say what they are in metadata that readers
// which do not know it skip: the field metadata of each lon and lat column
// (FieldCRS, FieldUnit) and, for readers that see only the file's own
// key-value metadata (DuckDB's parquet_kv_metadata, which does not decode
// Arrow field metadata), the schema key MetaCRS.
const (
	// FieldCRS is the field metadata key naming a coordinate column's
	// reference system.
	FieldCRS = "crs"
	// FieldUnit is the field metadata key naming a column's unit.
	FieldUnit = "unit"
	// MetaCRS is the schema metadata key naming the reference system of
	// a table's lon and lat columns.
	MetaCRS = "pathflow.crs"
	// CRS84 is WGS84 with longitude first, in degrees: OpenStreetMap's
	// coordinates, and GeoParquet's default.
	CRS84 = "OGC:CRS84"
	// UnitDegrees is the unit of lon and lat columns.
	UnitDegrees = "degrees"
)

// Distances are in the unit of the input's weights: the schema key
// MetaWeightUnit names it in every table derived from an input that says
// ("ms", "m": an OpenStreetMap network), and each column of distances
// carries it in its field metadata (FieldUnit; DistanceField), UnitWeight
// where the input names none.
const (
	// MetaWeightUnit is the schema metadata key naming the unit of the
	// input's weights.
	MetaWeightUnit = "pathflow.weight_unit"
	// UnitWeight is the unit of distances over weights whose unit the
	// input does not name: its own weight.
	UnitWeight = "weight"
)

// DistanceField returns f, a column of distances (or of weights), with the
// unit of the weights that meta, a table's schema metadata, names
// (MetaWeightUnit; UnitWeight when it names none) in its field metadata,
// so that a reader finds the unit on the column itself.
func DistanceField(f arrow.Field, meta map[string]string) arrow.Field {
	unit := meta[MetaWeightUnit]
	if unit == "" {
		unit = UnitWeight
	}
	f.Metadata = arrow.MetadataFrom(map[string]string{FieldUnit: unit})
	return f
}

// reservedPrefix marks schema metadata keys that Arrow and Parquet writers
// set themselves (ARROW:schema); callers may not use it.
const reservedPrefix = "ARROW:"

var (
	int32Type   = arrow.PrimitiveTypes.Int32
	int64Type   = arrow.PrimitiveTypes.Int64
	float64Type = arrow.PrimitiveTypes.Float64
)

// SchemaWith builds a schema of fields carrying meta, its keys in sorted
// order so that the same metadata gives the same bytes.
func SchemaWith(meta map[string]string, fields ...arrow.Field) *arrow.Schema {
	if len(meta) == 0 {
		return arrow.NewSchema(fields, nil)
	}
	md := arrow.MetadataFrom(meta) // sorted by key: deterministic bytes
	return arrow.NewSchema(fields, &md)
}

// CheckMeta rejects caller metadata that uses the key prefix the formats
// reserve for themselves.
func CheckMeta(meta map[string]string) error {
	for k := range meta {
		if strings.HasPrefix(k, reservedPrefix) {
			return fmt.Errorf("tables: metadata key %q uses the reserved prefix %q", k, reservedPrefix)
		}
	}
	return nil
}

// UserMeta returns the schema metadata minus the keys the formats add.
func UserMeta(s *arrow.Schema) map[string]string {
	md := s.Metadata()
	out := make(map[string]string, md.Len())
	for i, k := range md.Keys() {
		if !strings.HasPrefix(k, reservedPrefix) {
			out[k] = md.Values()[i]
		}
	}
	return out
}

// EdgesSchema is the schema of the edges table: one row per arc.
func EdgesSchema(meta map[string]string) *arrow.Schema {
	return SchemaWith(meta,
		arrow.Field{Name: ColSrc, Type: int32Type},
		arrow.Field{Name: ColDst, Type: int32Type},
		arrow.Field{Name: ColWeight, Type: int32Type},
	)
}

// VerticesSchema is the schema of the vertices table: one row per vertex,
// with the x and y columns only when coordinates are known. Geographic
// vertices have GeographicVerticesSchema instead (VerticesSchemaOf).
func VerticesSchema(withCoordinates bool, meta map[string]string) *arrow.Schema {
	fields := []arrow.Field{
		{Name: ColID, Type: int32Type},
		{Name: ColOriginalID, Type: int64Type},
	}
	if withCoordinates {
		fields = append(fields,
			arrow.Field{Name: ColX, Type: int32Type},
			arrow.Field{Name: ColY, Type: int32Type})
	}
	return SchemaWith(meta, fields...)
}

// GeographicVerticesSchema is the schema of the vertices table of
// geographic vertices: id, original_id, then lon and lat as float64
// degrees (X and Y over graph.UnitsPerDegree), with CRS metadata on the
// fields and MetaCRS in the schema metadata. meta may hold MetaCRS only
// with the value CRS84 (CheckCRSMeta).
func GeographicVerticesSchema(meta map[string]string) *arrow.Schema {
	return SchemaWith(withCRS(meta),
		arrow.Field{Name: ColID, Type: int32Type},
		arrow.Field{Name: ColOriginalID, Type: int64Type},
		degreesField(ColLon),
		degreesField(ColLat))
}

// VerticesSchemaOf is the schema the vertices writers use for vs:
// GeographicVerticesSchema for geographic vertices, VerticesSchema
// otherwise.
func VerticesSchemaOf(vs *graph.Vertices, meta map[string]string) *arrow.Schema {
	if vs.IsGeographic() {
		return GeographicVerticesSchema(meta)
	}
	return VerticesSchema(vs.HasCoordinates(), meta)
}

// degreesField is a float64 column of WGS84 degrees.
func degreesField(name string) arrow.Field {
	return arrow.Field{Name: name, Type: float64Type, Metadata: degreesMetadata()}
}

// degreesMetadata is the field metadata of a column of WGS84 degrees (a
// lon or lat column, or a list of them).
func degreesMetadata() arrow.Metadata {
	return arrow.MetadataFrom(map[string]string{FieldCRS: CRS84, FieldUnit: UnitDegrees})
}

// withCRS returns meta with MetaCRS set to CRS84, leaving meta as it is.
func withCRS(meta map[string]string) map[string]string {
	out := make(map[string]string, len(meta)+1)
	for k, v := range meta {
		out[k] = v
	}
	out[MetaCRS] = CRS84
	return out
}

// CheckCRSMeta rejects caller metadata for a geographic table whose
// MetaCRS names another reference system than the one its coordinates
// are in: the writers set that key themselves.
func CheckCRSMeta(meta map[string]string) error {
	if v, ok := meta[MetaCRS]; ok && v != CRS84 {
		return fmt.Errorf("tables: metadata %s=%q, but the coordinates are in %s", MetaCRS, v, CRS84)
	}
	return nil
}

// ColumnIndices maps each wanted column name to its index in a read schema,
// checking types; a missing optional column maps to -1.
func ColumnIndices(s *arrow.Schema, want []arrow.Field, optional ...string) ([]int, error) {
	idx := make([]int, len(want))
	for i, f := range want {
		found := s.FieldIndices(f.Name)
		switch {
		case len(found) == 0 && slices.Contains(optional, f.Name):
			idx[i] = -1
			continue
		case len(found) == 0:
			return nil, fmt.Errorf("tables: no column %q", f.Name)
		case len(found) > 1:
			return nil, fmt.Errorf("tables: column %q appears %d times", f.Name, len(found))
		}
		got := s.Field(found[0]).Type
		if !sameType(got, f.Type) {
			return nil, fmt.Errorf("tables: column %q has type %s, want %s", f.Name, got, f.Type)
		}
		idx[i] = found[0]
	}
	return idx, nil
}

// sameType compares types ignoring the names of list elements, which other
// writers spell "item" or "element".
func sameType(got, want arrow.DataType) bool {
	gl, ok1 := got.(*arrow.ListType)
	wl, ok2 := want.(*arrow.ListType)
	if ok1 && ok2 {
		return arrow.TypeEqual(gl.Elem(), wl.Elem())
	}
	return arrow.TypeEqual(got, want)
}
