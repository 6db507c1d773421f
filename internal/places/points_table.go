package places

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/pathflow/pathflow/internal/snap"
	"github.com/pathflow/pathflow/internal/tables"
)

// Column names of the points table.
const (
	ColRole       = "role"
	ColID         = "id"
	ColLon        = "lon"
	ColLat        = "lat"
	ColSnappedLon = "snapped_lon"
	ColSnappedLat = "snapped_lat"
	ColArc        = "arc"
	ColDistanceM  = "distance_m"
	ColSnapReason = "reason"
)

// The roles of the points table.
const (
	RoleOrigin      = "origin"
	RoleDestination = "destination"
)

// PointSet is one role's places: their ids, input coordinates and where
// they snapped.
type PointSet struct {
	Role     string
	IDs      arrow.Array
	Lon, Lat []float64
	Places   []snap.Place
}

// WritePoints writes the points table: for every origin, then every
// destination, in file order, its role, id, coordinates, the snapped
// position, the arc it lies on (the arc's row in the input's edges table)
// and the snap distance in metres, or nulls and the reason it did not
// snap. Ids keep their type when both roles share it, else both are
// written as strings.
func WritePoints(path string, sets []PointSet, meta map[string]string, opts ...tables.Option) (tables.FileInfo, error) {
	cfg, err := tables.NewConfig(opts)
	if err != nil {
		return tables.FileInfo{}, err
	}
	idType := sets[0].IDs.DataType()
	for _, s := range sets[1:] {
		if !arrow.TypeEqual(idType, s.IDs.DataType()) {
			idType = arrow.BinaryTypes.String
		}
	}
	deg := arrow.MetadataFrom(map[string]string{"unit": "degrees", "crs": "OGC:CRS84"})
	schema := tables.SchemaWith(meta,
		arrow.Field{Name: ColRole, Type: arrow.BinaryTypes.String},
		arrow.Field{Name: ColID, Type: idType},
		arrow.Field{Name: ColLon, Type: arrow.PrimitiveTypes.Float64, Nullable: true, Metadata: deg},
		arrow.Field{Name: ColLat, Type: arrow.PrimitiveTypes.Float64, Nullable: true, Metadata: deg},
		arrow.Field{Name: ColSnappedLon, Type: arrow.PrimitiveTypes.Float64, Nullable: true, Metadata: deg},
		arrow.Field{Name: ColSnappedLat, Type: arrow.PrimitiveTypes.Float64, Nullable: true, Metadata: deg},
		arrow.Field{Name: ColArc, Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		arrow.Field{Name: ColDistanceM, Type: arrow.PrimitiveTypes.Float64, Nullable: true, Metadata: arrow.MetadataFrom(map[string]string{"unit": "m"})},
		arrow.Field{Name: ColSnapReason, Type: arrow.BinaryTypes.String, Nullable: true},
	)
	return tables.WriteFile(path, schema, tables.ParquetEncoding{}, cfg, func(emit func(arrow.RecordBatch) error) error {
		for _, s := range sets {
			b := array.NewRecordBuilder(cfg.Mem, schema)
			for i, p := range s.Places {
				b.Field(0).(*array.StringBuilder).Append(s.Role)
				if err := appendID(b.Field(1), s.IDs, i); err != nil {
					b.Release()
					return err
				}
				appendFloat(b.Field(2), s.Lon[i])
				appendFloat(b.Field(3), s.Lat[i])
				if !p.OK {
					for f := 4; f <= 7; f++ {
						b.Field(f).AppendNull()
					}
					b.Field(8).(*array.StringBuilder).Append(p.Reason)
					continue
				}
				b.Field(4).(*array.Float64Builder).Append(p.Lon)
				b.Field(5).(*array.Float64Builder).Append(p.Lat)
				b.Field(6).(*array.Int32Builder).Append(p.Arc)
				b.Field(7).(*array.Float64Builder).Append(p.DistanceM)
				b.Field(8).AppendNull()
			}
			rec := b.NewRecordBatch()
			b.Release()
			err := emit(rec)
			rec.Release()
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// appendFloat appends x, null where it is NaN (no coordinates).
func appendFloat(b array.Builder, x float64) {
	if x != x {
		b.AppendNull()
		return
	}
	b.(*array.Float64Builder).Append(x)
}

// appendID appends value i of ids to b, converting to a string where b
// holds strings and ids do not.
func appendID(b array.Builder, ids arrow.Array, i int) error {
	if sb, ok := b.(*array.StringBuilder); ok {
		if s, ok := ids.(*array.String); ok {
			sb.Append(s.Value(i))
			return nil
		}
		sb.Append(ids.ValueStr(i))
		return nil
	}
	return appendRepeated(b, ids, i, 1)
}
