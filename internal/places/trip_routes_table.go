package places

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/pathflow/pathflow/internal/geoparquet"
	"github.com/pathflow/pathflow/internal/resultfiles"
	"github.com/pathflow/pathflow/internal/routes"
	"github.com/pathflow/pathflow/internal/snap"
	"github.com/pathflow/pathflow/internal/tables"
)

// TripRoutesFile is what WriteTripRoutes writes: a list of trips between
// places, with each trip's route.
type TripRoutesFile struct {
	// IDs are the trips' ids, IDName the column the file named them by.
	IDs    arrow.Array
	IDName string
	// Others are the file's other columns, a value per trip.
	Others tables.OtherColumns
	// Origins and Destinations are where each trip's ends snapped.
	Origins, Destinations []snap.Place
	// Routes are the trips' routes, filled while the file is written:
	// Ready(i), unless nil, returns once Routes[i] is final.
	Routes []TripRoute
	Ready  func(i int) error
	// Index is the network's routes: arcs, their points and metrics.
	Index *routes.Index
}

// WriteTripRoutes writes the routes of a list of trips to path through
// package geoparquet: one row per trip in file order, its id (under the
// file's name for it, with its type), the file's other columns, its
// distance (null where there is none; the weights' unit, which meta
// names, in the field metadata), its time (ms) and length (m) where the
// network has them, the reason a trip has no route (Trip tables' own:
// the origin's or the destination's snapping failure, or "no route"),
// and its line (RouteLine.Trace) with its bounding box. A file column
// named as one of these is refused. The rows are encoded as they become
// final (f.Ready), beside the searches. O(trips + points).
func WriteTripRoutes(path string, f *TripRoutesFile, meta map[string]string, opts ...tables.Option) (tables.FileInfo, error) {
	cfg, err := tables.NewConfig(opts)
	if err != nil {
		return tables.FileInfo{}, err
	}
	n := len(f.Routes)
	if f.IDs.Len() != n || len(f.Origins) != n || len(f.Destinations) != n {
		return tables.FileInfo{}, fmt.Errorf("places: %d ids, %d origins and %d destinations for %d trips", f.IDs.Len(), len(f.Origins), len(f.Destinations), n)
	}
	otherFields, err := f.Others.OutputFields("the file of trips", n, ColDistance, resultfiles.ColTime, resultfiles.ColLength, ColReason)
	if err != nil {
		return tables.FileInfo{}, fmt.Errorf("places: %w", err)
	}
	fields := append([]arrow.Field{{Name: f.IDName, Type: f.IDs.DataType()}}, otherFields...)
	fields = append(fields, tables.DistanceField(arrow.Field{Name: ColDistance, Type: arrow.PrimitiveTypes.Int64, Nullable: true}, meta))
	metrics := resultfiles.RouteMetricFields(f.Index)
	fields = append(fields, metrics...)
	fields = append(fields, arrow.Field{Name: ColReason, Type: arrow.BinaryTypes.String, Nullable: true})
	enc := tables.ParquetEncoding{Delta: []string{ColDistance, resultfiles.ColTime, resultfiles.ColLength}}
	return geoparquet.WriteFile(path, fields, meta, enc, cfg, func(out *geoparquet.Rows) error {
		line := NewRouteLine(f.Index)
		for i := range n {
			if f.Ready != nil {
				if err := f.Ready(i); err != nil {
					return err
				}
			}
			if err := f.appendRow(out, line, i, f.Index.HasTime(), f.Index.HasLength()); err != nil {
				return err
			}
		}
		return nil
	})
}

// appendRow appends trip i's row.
func (f *TripRoutesFile) appendRow(out *geoparquet.Rows, line *RouteLine, i int, hasTime, hasLength bool) error {
	col := 0
	next := func() array.Builder { b := out.Leading(col); col++; return b }
	if err := resultfiles.AppendValue(next(), f.IDs, i); err != nil {
		return err
	}
	for _, a := range f.Others.Arrays {
		if err := resultfiles.AppendValue(next(), a, i); err != nil {
			return err
		}
	}
	r, p, q := &f.Routes[i], &f.Origins[i], &f.Destinations[i]
	routed := r.Weight != NoPath
	var timeMS, lengthM int64
	if routed {
		var err error
		if timeMS, lengthM, err = line.Trace(r, p, q); err != nil {
			return err
		}
	}
	metrics := []struct {
		has bool
		v   int64
	}{{true, r.Weight}, {hasTime, timeMS}, {hasLength, lengthM}}
	for _, m := range metrics {
		if !m.has {
			continue
		}
		b := next().(*array.Int64Builder)
		if routed {
			b.Append(m.v)
		} else {
			b.AppendNull()
		}
	}
	reason := next().(*array.StringBuilder)
	if routed {
		reason.AppendNull()
		return out.AppendLine(line.Lon, line.Lat)
	}
	reason.Append(reasonFor(p, q))
	return out.AppendNull()
}
