package resultfiles

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/pathflow/pathflow/internal/tables"
)

// Column names of the result tables, as README.md documents them.
const (
	ColSource = "source"
	ColVertex = "vertex"
	// The input's ids of the source and vertex, with compute.ids:
	// original (ResultShape.WithOriginal).
	ColSourceOriginal = "source_original_id"
	ColVertexOriginal = "vertex_original_id"
	// The paths table's: the target's and the path's vertices' input ids
	// (OriginalIDs).
	ColTargetOriginal   = "target_original_id"
	ColVerticesOriginal = "vertices_original_id"
	ColDistance         = "distance"
	ColParent           = "parent"

	ColTarget   = "target"
	ColCost     = "cost"
	ColVertices = "vertices"

	ColReachable    = "reachable"
	ColEccentricity = "eccentricity"
	ColCloseness    = "closeness"
)

var (
	int32Type   = arrow.PrimitiveTypes.Int32
	int64Type   = arrow.PrimitiveTypes.Int64
	float64Type = arrow.PrimitiveTypes.Float64
	// The list types name their element "element", the name Parquet gives
	// list elements, so a schema reads back the same from both formats.
	int32List         = arrow.ListOfField(arrow.Field{Name: "element", Type: int32Type})
	int64List         = arrow.ListOfField(arrow.Field{Name: "element", Type: int64Type, Nullable: true})
	nullableInt32List = arrow.ListOfField(arrow.Field{Name: "element", Type: int32Type, Nullable: true})
	originalIDList    = arrow.ListOfField(arrow.Field{Name: "element", Type: int64Type})
)

// The columns of every result table, each declared once with its name, type
// and nullability: the writers build their schemas from these, and the
// readers find and check the columns of a file by the same schemas.
var (
	// sourceColumn starts every row of every result table.
	sourceColumn = arrow.Field{Name: ColSource, Type: int32Type}

	// The long layout of a distances table: a row per (source, vertex);
	// null distance: unreachable; null parent: the source or unreachable.
	vertexColumn   = arrow.Field{Name: ColVertex, Type: int32Type}
	distanceColumn = arrow.Field{Name: ColDistance, Type: int64Type, Nullable: true}
	parentColumn   = arrow.Field{Name: ColParent, Type: int32Type, Nullable: true}
	// The input's ids of a row's source and vertex, last, when asked for.
	sourceOriginalColumn = arrow.Field{Name: ColSourceOriginal, Type: int64Type}
	vertexOriginalColumn = arrow.Field{Name: ColVertexOriginal, Type: int64Type}

	// The wide layout: a row per source, the target cells as lists in
	// target order, null where unreachable or beyond the cutoff.
	wideDistanceColumn = arrow.Field{Name: ColDistance, Type: int64List}
	wideParentColumn   = arrow.Field{Name: ColParent, Type: nullableInt32List}

	// The paths table: a row per requested pair; null cost: unreachable;
	// null vertices: no path, or no parents kept.
	targetColumn   = arrow.Field{Name: ColTarget, Type: int32Type}
	costColumn     = arrow.Field{Name: ColCost, Type: int64Type, Nullable: true}
	verticesColumn = arrow.Field{Name: ColVertices, Type: int32List, Nullable: true}
	// The input's ids of a path's ends and vertices, last, when asked for
	// (OriginalIDs); the list is null where vertices is.
	targetOriginalColumn   = arrow.Field{Name: ColTargetOriginal, Type: int64Type}
	verticesOriginalColumn = arrow.Field{Name: ColVerticesOriginal, Type: originalIDList, Nullable: true}

	// The summary table: a row per source (see Summarize).
	reachableColumn    = arrow.Field{Name: ColReachable, Type: int64Type}
	eccentricityColumn = arrow.Field{Name: ColEccentricity, Type: int64Type, Nullable: true}
	closenessColumn    = arrow.Field{Name: ColCloseness, Type: float64Type, Nullable: true}
)

// MetricColumn names the metric a result reports beside the distance
// (results.Metric): its column's name ("length") and unit ("m"), the
// unit "" for none known.
type MetricColumn struct {
	Name, Unit string
}

// Field is the metric's column: int64, null where the distance is, its
// unit in the field metadata.
func (m MetricColumn) Field() arrow.Field {
	unit := m.Unit
	if unit == "" {
		unit = tables.UnitWeight
	}
	return arrow.Field{Name: m.Name, Type: int64Type, Nullable: true,
		Metadata: arrow.MetadataFrom(map[string]string{tables.FieldUnit: unit})}
}

// ResultSchema is the schema of a result table: one row per (source,
// vertex), with the metric columns after the distance and the parent
// column only when the run kept parents.
func ResultSchema(withParents bool, meta map[string]string, metrics ...MetricColumn) *arrow.Schema {
	fields := []arrow.Field{sourceColumn, vertexColumn, tables.DistanceField(distanceColumn, meta)}
	for _, m := range metrics {
		fields = append(fields, m.Field())
	}
	if withParents {
		fields = append(fields, parentColumn)
	}
	return tables.SchemaWith(meta, fields...)
}

// WideResultSchema is the schema of the wide layout: one row per source,
// the distances (null: unreachable or beyond the cutoff), the metrics and
// optionally the parents to the targets as lists in target order.
func WideResultSchema(withParents bool, meta map[string]string, metrics ...MetricColumn) *arrow.Schema {
	fields := []arrow.Field{sourceColumn, tables.DistanceField(wideDistanceColumn, meta)}
	for _, m := range metrics {
		f := m.Field()
		f.Type, f.Nullable = int64List, false
		fields = append(fields, f)
	}
	if withParents {
		fields = append(fields, wideParentColumn)
	}
	return tables.SchemaWith(meta, fields...)
}

// PathsSchema is the schema of the paths table: one row per (source,
// target) pair, ending with the input's ids of the source, the target and
// the path's vertices when ids asks for them.
func PathsSchema(ids OriginalIDs, meta map[string]string) *arrow.Schema {
	fields := []arrow.Field{sourceColumn, targetColumn, tables.DistanceField(costColumn, meta), verticesColumn}
	if ids.Write {
		fields = append(fields, sourceOriginalColumn, targetOriginalColumn, verticesOriginalColumn)
	}
	return tables.SchemaWith(meta, fields...)
}

// SummarySchema is the schema of the per-source summary table, ending
// with the source's input id when ids asks for it.
func SummarySchema(ids OriginalIDs, meta map[string]string) *arrow.Schema {
	fields := []arrow.Field{sourceColumn, reachableColumn, tables.DistanceField(eccentricityColumn, meta), closenessColumn}
	if ids.Write {
		fields = append(fields, sourceOriginalColumn)
	}
	return tables.SchemaWith(meta, fields...)
}
