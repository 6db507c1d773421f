package resultfiles

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/pathflow/pathflow/internal/geoparquet"
	"github.com/pathflow/pathflow/internal/paths"
	"github.com/pathflow/pathflow/internal/routes"
	"github.com/pathflow/pathflow/internal/tables"
)

// Column names the paths table of a road network adds: each path's
// travel time and length, summed over the arcs it takes.
const (
	ColTime   = "time"
	ColLength = "length"
)

// The units of ColTime and ColLength, in their fields' metadata.
const (
	UnitTime   = "ms"
	UnitLength = "m"
)

var (
	timeColumn   = arrow.Field{Name: ColTime, Type: int64Type, Nullable: true, Metadata: arrow.MetadataFrom(map[string]string{tables.FieldUnit: UnitTime})}
	lengthColumn = arrow.Field{Name: ColLength, Type: int64Type, Nullable: true, Metadata: arrow.MetadataFrom(map[string]string{tables.FieldUnit: UnitLength})}
)

// routeEncoding delta-encodes what the paths table does, and the metrics.
var routeEncoding = tables.ParquetEncoding{Delta: append(append([]string(nil), pathsEncoding.Delta...), ColTime, ColLength)}

// RouteMetricFields returns the time and length columns of a table of
// routes over ix, those the network has, with their units in the fields'
// metadata: the columns every routes table writes after its distance.
func RouteMetricFields(ix *routes.Index) []arrow.Field {
	var fields []arrow.Field
	if ix.HasTime() {
		fields = append(fields, timeColumn)
	}
	if ix.HasLength() {
		fields = append(fields, lengthColumn)
	}
	return fields
}

// RouteTableFields returns the columns of a paths table of routes before
// geometry and bbox: PathsSchema's, with others (a request file's other
// columns, OtherColumns.OutputFields) after source and target, then time
// and length where the network has them.
func RouteTableFields(ids OriginalIDs, others []arrow.Field, ix *routes.Index) []arrow.Field {
	fields := PathsSchema(ids, nil).Fields()
	fields = append(fields[:2:2], append(others, fields[2:]...)...)
	return append(fields, RouteMetricFields(ix)...)
}

// WriteRoutes writes rows as the paths table of a road network through
// package geoparquet: the columns of RouteTableFields, each row's route
// as a WKB LineString through its vertices and its arcs' intermediate
// points (geometry) and its bounding box (bbox). An unreachable pair, or
// one without vertices, has null time, length, geometry and bbox. others
// holds a value per row (nil Arrays: none). The file is GeoParquet, or
// Arrow IPC with the GeoArrow extension, as opts says. O(rows + points).
func WriteRoutes(path string, rows []PathRow, ids OriginalIDs, others tables.OtherColumns, ix *routes.Index, meta map[string]string, opts ...tables.Option) (tables.FileInfo, error) {
	return WriteRoutesAsReady(path, rows, nil, ids, others, ix, meta, opts...)
}

// WriteRoutesAsReady writes rows as WriteRoutes does while they are still
// being filled: it reads row i only once ready(i) has returned nil, and
// stops at ready's first error. A search that answers the rows in file
// order thus has its routes encoded and compressed beside it rather than
// after it. A nil ready means every row is final.
func WriteRoutesAsReady(path string, rows []PathRow, ready func(i int) error, ids OriginalIDs, others tables.OtherColumns, ix *routes.Index, meta map[string]string, opts ...tables.Option) (tables.FileInfo, error) {
	cfg, err := tables.NewConfig(opts)
	if err != nil {
		return tables.FileInfo{}, err
	}
	otherFields, err := others.OutputFields("the request file", len(rows), ColCost, ColVertices, ColTime, ColLength)
	if err != nil {
		return tables.FileInfo{}, err
	}
	fields := RouteTableFields(ids, otherFields, ix)
	return geoparquet.WriteFile(path, fields, meta, routeEncoding, cfg, func(out *geoparquet.Rows) error {
		w := routeRows{out: out, ids: ids, others: others.Arrays, ix: ix}
		for i := range rows {
			if ready != nil {
				if err := ready(i); err != nil {
					return err
				}
			}
			if err := w.append(i, &rows[i]); err != nil {
				return err
			}
		}
		return nil
	})
}

// routeRows appends the rows of a paths table of routes, reusing its
// scratch space from row to row.
type routeRows struct {
	out    *geoparquet.Rows
	ids    OriginalIDs
	others []arrow.Array
	ix     *routes.Index
	// draw writes the lines, sharing what a source's routes have in
	// common; made on the first route.
	draw *routes.Drawer
}

func (w *routeRows) append(i int, r *PathRow) error {
	col := 0
	next := func() array.Builder { b := w.out.Leading(col); col++; return b }
	next().(*array.Int32Builder).Append(r.Source)
	next().(*array.Int32Builder).Append(r.Target)
	for _, a := range w.others {
		if err := AppendValue(next(), a, i); err != nil {
			return err
		}
	}
	appendInt64(next(), r.Cost, r.Cost != paths.Unreachable)
	// The vertex lists are filled in place, in memory a later batch fills
	// again (geoparquet.Rows.AppendInt32List).
	if err := w.out.AppendInt32List(col, r.Vertices); err != nil {
		return err
	}
	col++
	route := r.Vertices != nil && r.Cost != paths.Unreachable
	if w.ids.Write {
		next().(*array.Int64Builder).Append(w.ids.Vertices.Original(r.Source))
		next().(*array.Int64Builder).Append(w.ids.Vertices.Original(r.Target))
		list := next().(*array.ListBuilder)
		if r.Vertices != nil {
			list.Append(true)
			items := list.ValueBuilder().(*array.Int64Builder)
			for _, v := range r.Vertices {
				items.Append(w.ids.Vertices.Original(v))
			}
		} else {
			list.AppendNull()
		}
	}
	if !route {
		if w.ix.HasTime() {
			next().AppendNull()
		}
		if w.ix.HasLength() {
			next().AppendNull()
		}
		return w.out.AppendNull()
	}
	if w.draw == nil {
		var err error
		if w.draw, err = w.ix.NewDrawer(); err != nil {
			return err
		}
	}
	timeMS, lengthM, points, err := w.draw.Route(w.out.Batch(), r.Vertices)
	if err != nil {
		return fmt.Errorf("resultfiles: the path from %d to %d: %w", r.Source, r.Target, err)
	}
	if w.ix.HasTime() {
		next().(*array.Int64Builder).Append(timeMS)
	}
	if w.ix.HasLength() {
		next().(*array.Int64Builder).Append(lengthM)
	}
	return w.out.AppendLineIn(points, w.draw.Fill)
}

func appendInt64(b array.Builder, v int64, valid bool) {
	if !valid {
		b.AppendNull()
		return
	}
	b.(*array.Int64Builder).Append(v)
}

// AppendValue appends a's value at i to b, of a's type: a request file's
// column, which may be of any type, copied through its text form where no
// typed copy is at hand.
func AppendValue(b array.Builder, a arrow.Array, i int) error {
	if a.IsNull(i) {
		b.AppendNull()
		return nil
	}
	switch a := a.(type) {
	case *array.String:
		b.(*array.StringBuilder).Append(a.Value(i))
	case *array.Int64:
		b.(*array.Int64Builder).Append(a.Value(i))
	case *array.Int32:
		b.(*array.Int32Builder).Append(a.Value(i))
	case *array.Float64:
		b.(*array.Float64Builder).Append(a.Value(i))
	default:
		if err := b.AppendValueFromString(a.ValueStr(i)); err != nil {
			return fmt.Errorf("resultfiles: a value of type %s: %w", a.DataType(), err)
		}
	}
	return nil
}
